export AGENT_CONTINUATIONS_STORE=sqlite:./agents.db
export AGENT_CONTINUATIONS_AGENTS=./agents.ts

npx tsx start.ts                  # your app: the run suspends for an approval and is saved
agent-continuations list          # what waits: each continuation with its actions and their ids
ID=$(agent-continuations list --json | node -p 'JSON.parse(fs.readFileSync(0, "utf8")).items[0].id')
agent-continuations show "$ID"    # the chain of agents down to the action, arguments, audit trail
agent-continuations approve "$ID" call_1 --args '{"to":"bob","amount":450}' --by ann@example.com
agent-continuations approve "$ID" call_1 || echo "exit $?: already resumed, nothing ran twice"
