// Imported between a framework and its adapter by ./imports.ts: what it costs is work the framework left pending.
export {};
