// Generated from the zod schemas of src/zod by scripts/generate.ts: do not edit by hand.
// Regenerate with `pnpm --filter @agent-continuations/core generate`.
// @ts-nocheck
export const validateContinuation = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"format":{"type":"string","const":"agent-continuation"},"version":{"type":"number","const":1},"id":{"type":"string","minLength":1},"runId":{"type":"string","minLength":1},"agent":{"type":"object","properties":{"name":{"type":"string","minLength":1},"framework":{"type":"string","minLength":1},"fingerprint":{"type":"string"}},"required":["name","framework"],"additionalProperties":false},"messages":{"type":"array","items":{"$ref":"#/$defs/Message"}},"pending":{"type":"array","items":{"$ref":"#/$defs/PendingEntry"}},"done":{"type":"array","items":{"type":"object","properties":{"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"output":{"$ref":"#/$defs/JsonValue"},"isError":{"type":"boolean"},"rejected":{"type":"boolean","const":true}},"required":["toolCallId","toolName","output"],"additionalProperties":false}},"step":{"type":"integer","minimum":0,"maximum":9007199254740991},"usage":{"$ref":"#/$defs/Usage"},"suspendedBy":{"oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"actions"},"kinds":{"type":"array","items":{"type":"string","enum":["approval","input","agent"]}}},"required":["type","kinds"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"predicate"},"predicates":{"type":"array","items":{"type":"string"}}},"required":["type","predicates"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"checkpoint"}},"required":["type"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"type"}},"state":{"$ref":"#/$defs/JsonValue"},"metadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}},"decisions":{"type":"array","items":{"$ref":"#/$defs/AuditEntry"}},"createdAt":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"},"seal":{"type":"object","properties":{"alg":{"type":"string","const":"HMAC-SHA256"},"keyId":{"type":"string"},"mac":{"type":"string","minLength":1}},"required":["alg","mac"],"additionalProperties":false}},"required":["format","version","id","runId","agent","messages","pending","done","step","usage","suspendedBy","metadata","decisions","createdAt"],"additionalProperties":false,"$defs":{"Message":{"oneOf":[{"type":"object","properties":{"role":{"type":"string","const":"system"},"content":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false},{"type":"object","properties":{"role":{"type":"string","const":"user"},"content":{"anyOf":[{"type":"string"},{"type":"array","items":{"oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"text"},"text":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","text"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"image"},"image":{"type":"string"},"mediaType":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","image"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"file"},"data":{"type":"string"},"mediaType":{"type":"string"},"filename":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","data","mediaType"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"type"}}}]},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false},{"type":"object","properties":{"role":{"type":"string","const":"assistant"},"content":{"anyOf":[{"type":"string"},{"type":"array","items":{"oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"text"},"text":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","text"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"file"},"data":{"type":"string"},"mediaType":{"type":"string"},"filename":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","data","mediaType"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"reasoning"},"text":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","text"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"tool-call"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","toolCallId","toolName","args"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"type"}}}]},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false},{"type":"object","properties":{"role":{"type":"string","const":"tool"},"content":{"type":"array","items":{"type":"object","properties":{"type":{"type":"string","const":"tool-result"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"output":{"$ref":"#/$defs/JsonValue"},"isError":{"type":"boolean"},"rejected":{"type":"boolean","const":true},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","toolCallId","toolName","output"],"additionalProperties":false}},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"role"}},"JsonValue":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"},{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}]},"PendingEntry":{"oneOf":[{"type":"object","properties":{"kind":{"type":"string","const":"approval"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"approved":{"type":"boolean"},"journal":{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},"deadline":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"},"description":{"type":"string"},"allowedDecisions":{"minItems":1,"type":"array","items":{"type":"string","enum":["approve","edit","reject","input"]}},"inDoubt":{"type":"boolean","const":true}},"required":["kind","toolCallId","toolName","args"],"additionalProperties":false},{"type":"object","properties":{"kind":{"type":"string","const":"input"},"request":{"$ref":"#/$defs/JsonValue"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"approved":{"type":"boolean"},"journal":{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},"deadline":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"},"description":{"type":"string"},"allowedDecisions":{"minItems":1,"type":"array","items":{"type":"string","enum":["approve","edit","reject","input"]}}},"required":["kind","request","toolCallId","toolName","args"],"additionalProperties":false},{"type":"object","properties":{"kind":{"type":"string","const":"agent"},"child":{"$ref":"#"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"approved":{"type":"boolean"},"journal":{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},"deadline":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"}},"required":["kind","child","toolCallId","toolName","args"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"kind"}},"Usage":{"type":"object","properties":{"inputTokens":{"type":"integer","minimum":0,"maximum":9007199254740991},"outputTokens":{"type":"integer","minimum":0,"maximum":9007199254740991},"totalTokens":{"type":"integer","minimum":0,"maximum":9007199254740991}},"required":["inputTokens","outputTokens","totalTokens"]},"AuditEntry":{"type":"object","properties":{"actionId":{"type":"string","minLength":1},"type":{"type":"string","enum":["approve","reject","input"]},"toolName":{"type":"string","minLength":1},"toolCallId":{"type":"string","minLength":1},"at":{"type":"string"},"by":{"type":"string"},"reason":{"type":"string"},"args":{"$ref":"#/$defs/JsonValue"},"editedArgs":{"$ref":"#/$defs/JsonValue"},"value":{"$ref":"#/$defs/JsonValue"}},"required":["actionId","type","toolName","toolCallId","at"],"additionalProperties":false}}};
const schema35 = {"type":"object","properties":{"inputTokens":{"type":"integer","minimum":0,"maximum":9007199254740991},"outputTokens":{"type":"integer","minimum":0,"maximum":9007199254740991},"totalTokens":{"type":"integer","minimum":0,"maximum":9007199254740991}},"required":["inputTokens","outputTokens","totalTokens"]};
const func1 = Object.prototype.hasOwnProperty;
const schema32 = {"oneOf":[{"type":"object","properties":{"role":{"type":"string","const":"system"},"content":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false},{"type":"object","properties":{"role":{"type":"string","const":"user"},"content":{"anyOf":[{"type":"string"},{"type":"array","items":{"oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"text"},"text":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","text"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"image"},"image":{"type":"string"},"mediaType":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","image"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"file"},"data":{"type":"string"},"mediaType":{"type":"string"},"filename":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","data","mediaType"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"type"}}}]},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false},{"type":"object","properties":{"role":{"type":"string","const":"assistant"},"content":{"anyOf":[{"type":"string"},{"type":"array","items":{"oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"text"},"text":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","text"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"file"},"data":{"type":"string"},"mediaType":{"type":"string"},"filename":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","data","mediaType"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"reasoning"},"text":{"type":"string"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","text"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"tool-call"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","toolCallId","toolName","args"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"type"}}}]},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false},{"type":"object","properties":{"role":{"type":"string","const":"tool"},"content":{"type":"array","items":{"type":"object","properties":{"type":{"type":"string","const":"tool-result"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"output":{"$ref":"#/$defs/JsonValue"},"isError":{"type":"boolean"},"rejected":{"type":"boolean","const":true},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["type","toolCallId","toolName","output"],"additionalProperties":false}},"providerMetadata":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}},"required":["role","content"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"role"}};
const schema33 = {"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"},{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/JsonValue"}}]};
const wrapper0 = {validate: validate22};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs0 = errors;
let valid0 = false;
const _errs1 = errors;
if(typeof data !== "string"){
const err0 = {instancePath,schemaPath:"#/anyOf/0/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var _valid0 = _errs1 === errors;
valid0 = valid0 || _valid0;
const _errs3 = errors;
if(!(typeof data == "number")){
const err1 = {instancePath,schemaPath:"#/anyOf/1/type",keyword:"type",params:{type: "number"}};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
var _valid0 = _errs3 === errors;
valid0 = valid0 || _valid0;
const _errs5 = errors;
if(typeof data !== "boolean"){
const err2 = {instancePath,schemaPath:"#/anyOf/2/type",keyword:"type",params:{type: "boolean"}};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs5 === errors;
valid0 = valid0 || _valid0;
const _errs7 = errors;
if(data !== null){
const err3 = {instancePath,schemaPath:"#/anyOf/3/type",keyword:"type",params:{type: "null"}};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
var _valid0 = _errs7 === errors;
valid0 = valid0 || _valid0;
const _errs9 = errors;
if(errors === _errs9){
if(Array.isArray(data)){
var valid1 = true;
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
const _errs11 = errors;
if(!(wrapper0.validate(data[i0], {instancePath:instancePath+"/" + i0,parentData:data,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? wrapper0.validate.errors : vErrors.concat(wrapper0.validate.errors);
errors = vErrors.length;
}
var valid1 = _errs11 === errors;
if(!valid1){
break;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/anyOf/4/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
var _valid0 = _errs9 === errors;
valid0 = valid0 || _valid0;
if(_valid0){
var items1 = true;
}
const _errs12 = errors;
if(errors === _errs12){
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
const _errs14 = errors;
if(typeof key0 !== "string"){
const err5 = {instancePath,schemaPath:"#/anyOf/5/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var valid2 = _errs14 === errors;
if(!valid2){
const err6 = {instancePath,schemaPath:"#/anyOf/5/propertyNames",keyword:"propertyNames",params:{propertyName: key0}};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
break;
}
}
if(valid2){
for(const key1 in data){
const _errs17 = errors;
if(!(wrapper0.validate(data[key1], {instancePath:instancePath+"/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data,parentDataProperty:key1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? wrapper0.validate.errors : vErrors.concat(wrapper0.validate.errors);
errors = vErrors.length;
}
var valid3 = _errs17 === errors;
if(!valid3){
break;
}
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/anyOf/5/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
var _valid0 = _errs12 === errors;
valid0 = valid0 || _valid0;
if(_valid0){
var props2 = true;
}
if(!valid0){
const err8 = {instancePath,schemaPath:"#/anyOf",keyword:"anyOf",params:{}};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
validate22.errors = vErrors;
return false;
}
else {
errors = _errs0;
if(vErrors !== null){
if(_errs0){
vErrors.length = _errs0;
}
else {
vErrors = null;
}
}
}
validate22.errors = vErrors;
evaluated0.props = props2;
evaluated0.items = items1;
return errors === 0;
}
validate22.evaluated = {"dynamicProps":true,"dynamicItems":true};


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
const tag0 = data.role;
if(typeof tag0 == "string"){
if(tag0 === "system"){
const _errs2 = errors;
if(errors === _errs2){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((data.role === undefined) && (missing0 = "role")) || ((data.content === undefined) && (missing0 = "content"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/0/required",keyword:"required",params:{missingProperty: missing0}}];
return false;
}
else {
const _errs4 = errors;
for(const key0 in data){
if(!(((key0 === "role") || (key0 === "content")) || (key0 === "providerMetadata"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/0/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0}}];
return false;
break;
}
}
if(_errs4 === errors){
if(data.role !== undefined){
let data0 = data.role;
const _errs5 = errors;
if(typeof data0 !== "string"){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/0/properties/role/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("system" !== data0){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/0/properties/role/const",keyword:"const",params:{allowedValue: "system"}}];
return false;
}
var valid2 = _errs5 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.content !== undefined){
const _errs7 = errors;
if(typeof data.content !== "string"){
validate21.errors = [{instancePath:instancePath+"/content",schemaPath:"#/oneOf/0/properties/content/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid2 = _errs7 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.providerMetadata !== undefined){
let data2 = data.providerMetadata;
const _errs9 = errors;
if(errors === _errs9){
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
const _errs11 = errors;
if(typeof key1 !== "string"){
const err0 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/0/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key1};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var valid3 = _errs11 === errors;
if(!valid3){
const err1 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/0/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key1}};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
validate21.errors = vErrors;
return false;
break;
}
}
if(valid3){
for(const key2 in data2){
const _errs14 = errors;
if(!(validate22(data2[key2], {instancePath:instancePath+"/providerMetadata/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data2,parentDataProperty:key2,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid4 = _errs14 === errors;
if(!valid4){
break;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/0/properties/providerMetadata/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid2 = _errs9 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/oneOf/0/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var props1 = true;
}
else if(tag0 === "user"){
const _errs15 = errors;
if(errors === _errs15){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing1;
if(((data.role === undefined) && (missing1 = "role")) || ((data.content === undefined) && (missing1 = "content"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/1/required",keyword:"required",params:{missingProperty: missing1}}];
return false;
}
else {
const _errs17 = errors;
for(const key3 in data){
if(!(((key3 === "role") || (key3 === "content")) || (key3 === "providerMetadata"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3}}];
return false;
break;
}
}
if(_errs17 === errors){
if(data.role !== undefined){
let data4 = data.role;
const _errs18 = errors;
if(typeof data4 !== "string"){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/1/properties/role/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("user" !== data4){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/1/properties/role/const",keyword:"const",params:{allowedValue: "user"}}];
return false;
}
var valid6 = _errs18 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.content !== undefined){
let data5 = data.content;
const _errs20 = errors;
const _errs21 = errors;
let valid7 = false;
const _errs22 = errors;
if(typeof data5 !== "string"){
const err2 = {instancePath:instancePath+"/content",schemaPath:"#/oneOf/1/properties/content/anyOf/0/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs22 === errors;
valid7 = valid7 || _valid0;
const _errs24 = errors;
if(errors === _errs24){
if(Array.isArray(data5)){
var valid8 = true;
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
const _errs26 = errors;
if(errors === _errs26){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
const tag1 = data6.type;
if(typeof tag1 == "string"){
if(tag1 === "text"){
const _errs29 = errors;
if(errors === _errs29){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
let missing2;
if(((data6.type === undefined) && (missing2 = "type")) || ((data6.text === undefined) && (missing2 = "text"))){
const err3 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/required",keyword:"required",params:{missingProperty: missing2}};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
else {
const _errs31 = errors;
for(const key4 in data6){
if(!(((key4 === "type") || (key4 === "text")) || (key4 === "providerMetadata"))){
const err4 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4}};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
break;
}
}
if(_errs31 === errors){
if(data6.type !== undefined){
let data7 = data6.type;
const _errs32 = errors;
if(typeof data7 !== "string"){
const err5 = {instancePath:instancePath+"/content/" + i0+"/type",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if("text" !== data7){
const err6 = {instancePath:instancePath+"/content/" + i0+"/type",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/properties/type/const",keyword:"const",params:{allowedValue: "text"}};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var valid11 = _errs32 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data6.text !== undefined){
const _errs34 = errors;
if(typeof data6.text !== "string"){
const err7 = {instancePath:instancePath+"/content/" + i0+"/text",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/properties/text/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
var valid11 = _errs34 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data6.providerMetadata !== undefined){
let data9 = data6.providerMetadata;
const _errs36 = errors;
if(errors === _errs36){
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
for(const key5 in data9){
const _errs38 = errors;
if(typeof key5 !== "string"){
const err8 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key5};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var valid12 = _errs38 === errors;
if(!valid12){
const err9 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key5}};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
break;
}
}
if(valid12){
for(const key6 in data9){
const _errs41 = errors;
if(!(validate22(data9[key6], {instancePath:instancePath+"/content/" + i0+"/providerMetadata/" + key6.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data9,parentDataProperty:key6,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid13 = _errs41 === errors;
if(!valid13){
break;
}
}
}
}
else {
const err10 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/properties/providerMetadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
var valid11 = _errs36 === errors;
}
else {
var valid11 = true;
}
}
}
}
}
}
else {
const err11 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
var props3 = true;
}
else if(tag1 === "image"){
const _errs42 = errors;
if(errors === _errs42){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
let missing3;
if(((data6.type === undefined) && (missing3 = "type")) || ((data6.image === undefined) && (missing3 = "image"))){
const err12 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/required",keyword:"required",params:{missingProperty: missing3}};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
else {
const _errs44 = errors;
for(const key7 in data6){
if(!((((key7 === "type") || (key7 === "image")) || (key7 === "mediaType")) || (key7 === "providerMetadata"))){
const err13 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key7}};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
break;
}
}
if(_errs44 === errors){
if(data6.type !== undefined){
let data11 = data6.type;
const _errs45 = errors;
if(typeof data11 !== "string"){
const err14 = {instancePath:instancePath+"/content/" + i0+"/type",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if("image" !== data11){
const err15 = {instancePath:instancePath+"/content/" + i0+"/type",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/properties/type/const",keyword:"const",params:{allowedValue: "image"}};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var valid15 = _errs45 === errors;
}
else {
var valid15 = true;
}
if(valid15){
if(data6.image !== undefined){
const _errs47 = errors;
if(typeof data6.image !== "string"){
const err16 = {instancePath:instancePath+"/content/" + i0+"/image",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/properties/image/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
var valid15 = _errs47 === errors;
}
else {
var valid15 = true;
}
if(valid15){
if(data6.mediaType !== undefined){
const _errs49 = errors;
if(typeof data6.mediaType !== "string"){
const err17 = {instancePath:instancePath+"/content/" + i0+"/mediaType",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/properties/mediaType/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
var valid15 = _errs49 === errors;
}
else {
var valid15 = true;
}
if(valid15){
if(data6.providerMetadata !== undefined){
let data14 = data6.providerMetadata;
const _errs51 = errors;
if(errors === _errs51){
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
for(const key8 in data14){
const _errs53 = errors;
if(typeof key8 !== "string"){
const err18 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key8};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
var valid16 = _errs53 === errors;
if(!valid16){
const err19 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key8}};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
break;
}
}
if(valid16){
for(const key9 in data14){
const _errs56 = errors;
if(!(validate22(data14[key9], {instancePath:instancePath+"/content/" + i0+"/providerMetadata/" + key9.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data14,parentDataProperty:key9,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid17 = _errs56 === errors;
if(!valid17){
break;
}
}
}
}
else {
const err20 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/properties/providerMetadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
var valid15 = _errs51 === errors;
}
else {
var valid15 = true;
}
}
}
}
}
}
}
else {
const err21 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(props3 !== true){
props3 = true;
}
}
else if(tag1 === "file"){
const _errs57 = errors;
if(errors === _errs57){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
let missing4;
if((((data6.type === undefined) && (missing4 = "type")) || ((data6.data === undefined) && (missing4 = "data"))) || ((data6.mediaType === undefined) && (missing4 = "mediaType"))){
const err22 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/required",keyword:"required",params:{missingProperty: missing4}};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
else {
const _errs59 = errors;
for(const key10 in data6){
if(!(((((key10 === "type") || (key10 === "data")) || (key10 === "mediaType")) || (key10 === "filename")) || (key10 === "providerMetadata"))){
const err23 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key10}};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
break;
}
}
if(_errs59 === errors){
if(data6.type !== undefined){
let data16 = data6.type;
const _errs60 = errors;
if(typeof data16 !== "string"){
const err24 = {instancePath:instancePath+"/content/" + i0+"/type",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if("file" !== data16){
const err25 = {instancePath:instancePath+"/content/" + i0+"/type",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/type/const",keyword:"const",params:{allowedValue: "file"}};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
var valid19 = _errs60 === errors;
}
else {
var valid19 = true;
}
if(valid19){
if(data6.data !== undefined){
const _errs62 = errors;
if(typeof data6.data !== "string"){
const err26 = {instancePath:instancePath+"/content/" + i0+"/data",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/data/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
var valid19 = _errs62 === errors;
}
else {
var valid19 = true;
}
if(valid19){
if(data6.mediaType !== undefined){
const _errs64 = errors;
if(typeof data6.mediaType !== "string"){
const err27 = {instancePath:instancePath+"/content/" + i0+"/mediaType",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/mediaType/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
var valid19 = _errs64 === errors;
}
else {
var valid19 = true;
}
if(valid19){
if(data6.filename !== undefined){
const _errs66 = errors;
if(typeof data6.filename !== "string"){
const err28 = {instancePath:instancePath+"/content/" + i0+"/filename",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/filename/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
var valid19 = _errs66 === errors;
}
else {
var valid19 = true;
}
if(valid19){
if(data6.providerMetadata !== undefined){
let data20 = data6.providerMetadata;
const _errs68 = errors;
if(errors === _errs68){
if(data20 && typeof data20 == "object" && !Array.isArray(data20)){
for(const key11 in data20){
const _errs70 = errors;
if(typeof key11 !== "string"){
const err29 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key11};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
var valid20 = _errs70 === errors;
if(!valid20){
const err30 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key11}};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
break;
}
}
if(valid20){
for(const key12 in data20){
const _errs73 = errors;
if(!(validate22(data20[key12], {instancePath:instancePath+"/content/" + i0+"/providerMetadata/" + key12.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data20,parentDataProperty:key12,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid21 = _errs73 === errors;
if(!valid21){
break;
}
}
}
}
else {
const err31 = {instancePath:instancePath+"/content/" + i0+"/providerMetadata",schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/properties/providerMetadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
var valid19 = _errs68 === errors;
}
else {
var valid19 = true;
}
}
}
}
}
}
}
}
else {
const err32 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(props3 !== true){
props3 = true;
}
}
else {
const err33 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "type", tagValue: tag1}};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
else {
const err34 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/discriminator",keyword:"discriminator",params:{error: "tag", tag: "type", tagValue: tag1}};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
else {
const err35 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/oneOf/1/properties/content/anyOf/1/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
var valid8 = _errs26 === errors;
if(!valid8){
break;
}
}
}
else {
const err36 = {instancePath:instancePath+"/content",schemaPath:"#/oneOf/1/properties/content/anyOf/1/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
var _valid0 = _errs24 === errors;
valid7 = valid7 || _valid0;
if(!valid7){
const err37 = {instancePath:instancePath+"/content",schemaPath:"#/oneOf/1/properties/content/anyOf",keyword:"anyOf",params:{}};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
validate21.errors = vErrors;
return false;
}
else {
errors = _errs21;
if(vErrors !== null){
if(_errs21){
vErrors.length = _errs21;
}
else {
vErrors = null;
}
}
}
var valid6 = _errs20 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.providerMetadata !== undefined){
let data22 = data.providerMetadata;
const _errs74 = errors;
if(errors === _errs74){
if(data22 && typeof data22 == "object" && !Array.isArray(data22)){
for(const key13 in data22){
const _errs76 = errors;
if(typeof key13 !== "string"){
const err38 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/1/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key13};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
var valid22 = _errs76 === errors;
if(!valid22){
const err39 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/1/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key13}};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
validate21.errors = vErrors;
return false;
break;
}
}
if(valid22){
for(const key14 in data22){
const _errs79 = errors;
if(!(validate22(data22[key14], {instancePath:instancePath+"/providerMetadata/" + key14.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data22,parentDataProperty:key14,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid23 = _errs79 === errors;
if(!valid23){
break;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/1/properties/providerMetadata/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid6 = _errs74 === errors;
}
else {
var valid6 = true;
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/oneOf/1/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props1 !== true){
props1 = true;
}
}
else if(tag0 === "assistant"){
const _errs80 = errors;
if(errors === _errs80){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing5;
if(((data.role === undefined) && (missing5 = "role")) || ((data.content === undefined) && (missing5 = "content"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/2/required",keyword:"required",params:{missingProperty: missing5}}];
return false;
}
else {
const _errs82 = errors;
for(const key15 in data){
if(!(((key15 === "role") || (key15 === "content")) || (key15 === "providerMetadata"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/2/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key15}}];
return false;
break;
}
}
if(_errs82 === errors){
if(data.role !== undefined){
let data24 = data.role;
const _errs83 = errors;
if(typeof data24 !== "string"){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/2/properties/role/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("assistant" !== data24){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/2/properties/role/const",keyword:"const",params:{allowedValue: "assistant"}}];
return false;
}
var valid25 = _errs83 === errors;
}
else {
var valid25 = true;
}
if(valid25){
if(data.content !== undefined){
let data25 = data.content;
const _errs85 = errors;
const _errs86 = errors;
let valid26 = false;
const _errs87 = errors;
if(typeof data25 !== "string"){
const err40 = {instancePath:instancePath+"/content",schemaPath:"#/oneOf/2/properties/content/anyOf/0/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
var _valid1 = _errs87 === errors;
valid26 = valid26 || _valid1;
const _errs89 = errors;
if(errors === _errs89){
if(Array.isArray(data25)){
var valid27 = true;
const len1 = data25.length;
for(let i1=0; i1<len1; i1++){
let data26 = data25[i1];
const _errs91 = errors;
if(errors === _errs91){
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
const tag2 = data26.type;
if(typeof tag2 == "string"){
if(tag2 === "text"){
const _errs94 = errors;
if(errors === _errs94){
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
let missing6;
if(((data26.type === undefined) && (missing6 = "type")) || ((data26.text === undefined) && (missing6 = "text"))){
const err41 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/required",keyword:"required",params:{missingProperty: missing6}};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
else {
const _errs96 = errors;
for(const key16 in data26){
if(!(((key16 === "type") || (key16 === "text")) || (key16 === "providerMetadata"))){
const err42 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key16}};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
break;
}
}
if(_errs96 === errors){
if(data26.type !== undefined){
let data27 = data26.type;
const _errs97 = errors;
if(typeof data27 !== "string"){
const err43 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
if("text" !== data27){
const err44 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/properties/type/const",keyword:"const",params:{allowedValue: "text"}};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
var valid30 = _errs97 === errors;
}
else {
var valid30 = true;
}
if(valid30){
if(data26.text !== undefined){
const _errs99 = errors;
if(typeof data26.text !== "string"){
const err45 = {instancePath:instancePath+"/content/" + i1+"/text",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/properties/text/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
var valid30 = _errs99 === errors;
}
else {
var valid30 = true;
}
if(valid30){
if(data26.providerMetadata !== undefined){
let data29 = data26.providerMetadata;
const _errs101 = errors;
if(errors === _errs101){
if(data29 && typeof data29 == "object" && !Array.isArray(data29)){
for(const key17 in data29){
const _errs103 = errors;
if(typeof key17 !== "string"){
const err46 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key17};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
var valid31 = _errs103 === errors;
if(!valid31){
const err47 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key17}};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
break;
}
}
if(valid31){
for(const key18 in data29){
const _errs106 = errors;
if(!(validate22(data29[key18], {instancePath:instancePath+"/content/" + i1+"/providerMetadata/" + key18.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data29,parentDataProperty:key18,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid32 = _errs106 === errors;
if(!valid32){
break;
}
}
}
}
else {
const err48 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/properties/providerMetadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
var valid30 = _errs101 === errors;
}
else {
var valid30 = true;
}
}
}
}
}
}
else {
const err49 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
var props8 = true;
}
else if(tag2 === "file"){
const _errs107 = errors;
if(errors === _errs107){
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
let missing7;
if((((data26.type === undefined) && (missing7 = "type")) || ((data26.data === undefined) && (missing7 = "data"))) || ((data26.mediaType === undefined) && (missing7 = "mediaType"))){
const err50 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/required",keyword:"required",params:{missingProperty: missing7}};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
else {
const _errs109 = errors;
for(const key19 in data26){
if(!(((((key19 === "type") || (key19 === "data")) || (key19 === "mediaType")) || (key19 === "filename")) || (key19 === "providerMetadata"))){
const err51 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key19}};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
break;
}
}
if(_errs109 === errors){
if(data26.type !== undefined){
let data31 = data26.type;
const _errs110 = errors;
if(typeof data31 !== "string"){
const err52 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
if("file" !== data31){
const err53 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/type/const",keyword:"const",params:{allowedValue: "file"}};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
var valid34 = _errs110 === errors;
}
else {
var valid34 = true;
}
if(valid34){
if(data26.data !== undefined){
const _errs112 = errors;
if(typeof data26.data !== "string"){
const err54 = {instancePath:instancePath+"/content/" + i1+"/data",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/data/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
var valid34 = _errs112 === errors;
}
else {
var valid34 = true;
}
if(valid34){
if(data26.mediaType !== undefined){
const _errs114 = errors;
if(typeof data26.mediaType !== "string"){
const err55 = {instancePath:instancePath+"/content/" + i1+"/mediaType",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/mediaType/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
var valid34 = _errs114 === errors;
}
else {
var valid34 = true;
}
if(valid34){
if(data26.filename !== undefined){
const _errs116 = errors;
if(typeof data26.filename !== "string"){
const err56 = {instancePath:instancePath+"/content/" + i1+"/filename",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/filename/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
var valid34 = _errs116 === errors;
}
else {
var valid34 = true;
}
if(valid34){
if(data26.providerMetadata !== undefined){
let data35 = data26.providerMetadata;
const _errs118 = errors;
if(errors === _errs118){
if(data35 && typeof data35 == "object" && !Array.isArray(data35)){
for(const key20 in data35){
const _errs120 = errors;
if(typeof key20 !== "string"){
const err57 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key20};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
var valid35 = _errs120 === errors;
if(!valid35){
const err58 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key20}};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
break;
}
}
if(valid35){
for(const key21 in data35){
const _errs123 = errors;
if(!(validate22(data35[key21], {instancePath:instancePath+"/content/" + i1+"/providerMetadata/" + key21.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data35,parentDataProperty:key21,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid36 = _errs123 === errors;
if(!valid36){
break;
}
}
}
}
else {
const err59 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/properties/providerMetadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
var valid34 = _errs118 === errors;
}
else {
var valid34 = true;
}
}
}
}
}
}
}
}
else {
const err60 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
if(props8 !== true){
props8 = true;
}
}
else if(tag2 === "reasoning"){
const _errs124 = errors;
if(errors === _errs124){
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
let missing8;
if(((data26.type === undefined) && (missing8 = "type")) || ((data26.text === undefined) && (missing8 = "text"))){
const err61 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/required",keyword:"required",params:{missingProperty: missing8}};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
else {
const _errs126 = errors;
for(const key22 in data26){
if(!(((key22 === "type") || (key22 === "text")) || (key22 === "providerMetadata"))){
const err62 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key22}};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
break;
}
}
if(_errs126 === errors){
if(data26.type !== undefined){
let data37 = data26.type;
const _errs127 = errors;
if(typeof data37 !== "string"){
const err63 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
if("reasoning" !== data37){
const err64 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/properties/type/const",keyword:"const",params:{allowedValue: "reasoning"}};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
var valid38 = _errs127 === errors;
}
else {
var valid38 = true;
}
if(valid38){
if(data26.text !== undefined){
const _errs129 = errors;
if(typeof data26.text !== "string"){
const err65 = {instancePath:instancePath+"/content/" + i1+"/text",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/properties/text/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
var valid38 = _errs129 === errors;
}
else {
var valid38 = true;
}
if(valid38){
if(data26.providerMetadata !== undefined){
let data39 = data26.providerMetadata;
const _errs131 = errors;
if(errors === _errs131){
if(data39 && typeof data39 == "object" && !Array.isArray(data39)){
for(const key23 in data39){
const _errs133 = errors;
if(typeof key23 !== "string"){
const err66 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key23};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
var valid39 = _errs133 === errors;
if(!valid39){
const err67 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key23}};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
break;
}
}
if(valid39){
for(const key24 in data39){
const _errs136 = errors;
if(!(validate22(data39[key24], {instancePath:instancePath+"/content/" + i1+"/providerMetadata/" + key24.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data39,parentDataProperty:key24,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid40 = _errs136 === errors;
if(!valid40){
break;
}
}
}
}
else {
const err68 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/properties/providerMetadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
var valid38 = _errs131 === errors;
}
else {
var valid38 = true;
}
}
}
}
}
}
else {
const err69 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
if(props8 !== true){
props8 = true;
}
}
else if(tag2 === "tool-call"){
const _errs137 = errors;
if(errors === _errs137){
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
let missing9;
if(((((data26.type === undefined) && (missing9 = "type")) || ((data26.toolCallId === undefined) && (missing9 = "toolCallId"))) || ((data26.toolName === undefined) && (missing9 = "toolName"))) || ((data26.args === undefined) && (missing9 = "args"))){
const err70 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/required",keyword:"required",params:{missingProperty: missing9}};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
else {
const _errs139 = errors;
for(const key25 in data26){
if(!(((((key25 === "type") || (key25 === "toolCallId")) || (key25 === "toolName")) || (key25 === "args")) || (key25 === "providerMetadata"))){
const err71 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key25}};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
break;
}
}
if(_errs139 === errors){
if(data26.type !== undefined){
let data41 = data26.type;
const _errs140 = errors;
if(typeof data41 !== "string"){
const err72 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
if("tool-call" !== data41){
const err73 = {instancePath:instancePath+"/content/" + i1+"/type",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/type/const",keyword:"const",params:{allowedValue: "tool-call"}};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
var valid42 = _errs140 === errors;
}
else {
var valid42 = true;
}
if(valid42){
if(data26.toolCallId !== undefined){
let data42 = data26.toolCallId;
const _errs142 = errors;
if(errors === _errs142){
if(typeof data42 === "string"){
if(data42.length < 1){
const err74 = {instancePath:instancePath+"/content/" + i1+"/toolCallId",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/toolCallId/minLength",keyword:"minLength",params:{limit: 1}};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
}
else {
const err75 = {instancePath:instancePath+"/content/" + i1+"/toolCallId",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/toolCallId/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
}
var valid42 = _errs142 === errors;
}
else {
var valid42 = true;
}
if(valid42){
if(data26.toolName !== undefined){
let data43 = data26.toolName;
const _errs144 = errors;
if(errors === _errs144){
if(typeof data43 === "string"){
if(data43.length < 1){
const err76 = {instancePath:instancePath+"/content/" + i1+"/toolName",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/toolName/minLength",keyword:"minLength",params:{limit: 1}};
if(vErrors === null){
vErrors = [err76];
}
else {
vErrors.push(err76);
}
errors++;
}
}
else {
const err77 = {instancePath:instancePath+"/content/" + i1+"/toolName",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/toolName/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err77];
}
else {
vErrors.push(err77);
}
errors++;
}
}
var valid42 = _errs144 === errors;
}
else {
var valid42 = true;
}
if(valid42){
if(data26.args !== undefined){
const _errs146 = errors;
if(!(validate22(data26.args, {instancePath:instancePath+"/content/" + i1+"/args",parentData:data26,parentDataProperty:"args",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid42 = _errs146 === errors;
}
else {
var valid42 = true;
}
if(valid42){
if(data26.providerMetadata !== undefined){
let data45 = data26.providerMetadata;
const _errs147 = errors;
if(errors === _errs147){
if(data45 && typeof data45 == "object" && !Array.isArray(data45)){
for(const key26 in data45){
const _errs149 = errors;
if(typeof key26 !== "string"){
const err78 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key26};
if(vErrors === null){
vErrors = [err78];
}
else {
vErrors.push(err78);
}
errors++;
}
var valid43 = _errs149 === errors;
if(!valid43){
const err79 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key26}};
if(vErrors === null){
vErrors = [err79];
}
else {
vErrors.push(err79);
}
errors++;
break;
}
}
if(valid43){
for(const key27 in data45){
const _errs152 = errors;
if(!(validate22(data45[key27], {instancePath:instancePath+"/content/" + i1+"/providerMetadata/" + key27.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data45,parentDataProperty:key27,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid44 = _errs152 === errors;
if(!valid44){
break;
}
}
}
}
else {
const err80 = {instancePath:instancePath+"/content/" + i1+"/providerMetadata",schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/properties/providerMetadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err80];
}
else {
vErrors.push(err80);
}
errors++;
}
}
var valid42 = _errs147 === errors;
}
else {
var valid42 = true;
}
}
}
}
}
}
}
}
else {
const err81 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err81];
}
else {
vErrors.push(err81);
}
errors++;
}
}
if(props8 !== true){
props8 = true;
}
}
else {
const err82 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "type", tagValue: tag2}};
if(vErrors === null){
vErrors = [err82];
}
else {
vErrors.push(err82);
}
errors++;
}
}
else {
const err83 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/discriminator",keyword:"discriminator",params:{error: "tag", tag: "type", tagValue: tag2}};
if(vErrors === null){
vErrors = [err83];
}
else {
vErrors.push(err83);
}
errors++;
}
}
else {
const err84 = {instancePath:instancePath+"/content/" + i1,schemaPath:"#/oneOf/2/properties/content/anyOf/1/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err84];
}
else {
vErrors.push(err84);
}
errors++;
}
}
var valid27 = _errs91 === errors;
if(!valid27){
break;
}
}
}
else {
const err85 = {instancePath:instancePath+"/content",schemaPath:"#/oneOf/2/properties/content/anyOf/1/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err85];
}
else {
vErrors.push(err85);
}
errors++;
}
}
var _valid1 = _errs89 === errors;
valid26 = valid26 || _valid1;
if(!valid26){
const err86 = {instancePath:instancePath+"/content",schemaPath:"#/oneOf/2/properties/content/anyOf",keyword:"anyOf",params:{}};
if(vErrors === null){
vErrors = [err86];
}
else {
vErrors.push(err86);
}
errors++;
validate21.errors = vErrors;
return false;
}
else {
errors = _errs86;
if(vErrors !== null){
if(_errs86){
vErrors.length = _errs86;
}
else {
vErrors = null;
}
}
}
var valid25 = _errs85 === errors;
}
else {
var valid25 = true;
}
if(valid25){
if(data.providerMetadata !== undefined){
let data47 = data.providerMetadata;
const _errs153 = errors;
if(errors === _errs153){
if(data47 && typeof data47 == "object" && !Array.isArray(data47)){
for(const key28 in data47){
const _errs155 = errors;
if(typeof key28 !== "string"){
const err87 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/2/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key28};
if(vErrors === null){
vErrors = [err87];
}
else {
vErrors.push(err87);
}
errors++;
}
var valid45 = _errs155 === errors;
if(!valid45){
const err88 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/2/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key28}};
if(vErrors === null){
vErrors = [err88];
}
else {
vErrors.push(err88);
}
errors++;
validate21.errors = vErrors;
return false;
break;
}
}
if(valid45){
for(const key29 in data47){
const _errs158 = errors;
if(!(validate22(data47[key29], {instancePath:instancePath+"/providerMetadata/" + key29.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data47,parentDataProperty:key29,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid46 = _errs158 === errors;
if(!valid46){
break;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/2/properties/providerMetadata/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid25 = _errs153 === errors;
}
else {
var valid25 = true;
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/oneOf/2/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props1 !== true){
props1 = true;
}
}
else if(tag0 === "tool"){
const _errs159 = errors;
if(errors === _errs159){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing10;
if(((data.role === undefined) && (missing10 = "role")) || ((data.content === undefined) && (missing10 = "content"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/3/required",keyword:"required",params:{missingProperty: missing10}}];
return false;
}
else {
const _errs161 = errors;
for(const key30 in data){
if(!(((key30 === "role") || (key30 === "content")) || (key30 === "providerMetadata"))){
validate21.errors = [{instancePath,schemaPath:"#/oneOf/3/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key30}}];
return false;
break;
}
}
if(_errs161 === errors){
if(data.role !== undefined){
let data49 = data.role;
const _errs162 = errors;
if(typeof data49 !== "string"){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/3/properties/role/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("tool" !== data49){
validate21.errors = [{instancePath:instancePath+"/role",schemaPath:"#/oneOf/3/properties/role/const",keyword:"const",params:{allowedValue: "tool"}}];
return false;
}
var valid48 = _errs162 === errors;
}
else {
var valid48 = true;
}
if(valid48){
if(data.content !== undefined){
let data50 = data.content;
const _errs164 = errors;
if(errors === _errs164){
if(Array.isArray(data50)){
var valid49 = true;
const len2 = data50.length;
for(let i2=0; i2<len2; i2++){
let data51 = data50[i2];
const _errs166 = errors;
if(errors === _errs166){
if(data51 && typeof data51 == "object" && !Array.isArray(data51)){
let missing11;
if(((((data51.type === undefined) && (missing11 = "type")) || ((data51.toolCallId === undefined) && (missing11 = "toolCallId"))) || ((data51.toolName === undefined) && (missing11 = "toolName"))) || ((data51.output === undefined) && (missing11 = "output"))){
validate21.errors = [{instancePath:instancePath+"/content/" + i2,schemaPath:"#/oneOf/3/properties/content/items/required",keyword:"required",params:{missingProperty: missing11}}];
return false;
}
else {
const _errs168 = errors;
for(const key31 in data51){
if(!(((((((key31 === "type") || (key31 === "toolCallId")) || (key31 === "toolName")) || (key31 === "output")) || (key31 === "isError")) || (key31 === "rejected")) || (key31 === "providerMetadata"))){
validate21.errors = [{instancePath:instancePath+"/content/" + i2,schemaPath:"#/oneOf/3/properties/content/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key31}}];
return false;
break;
}
}
if(_errs168 === errors){
if(data51.type !== undefined){
let data52 = data51.type;
const _errs169 = errors;
if(typeof data52 !== "string"){
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/type",schemaPath:"#/oneOf/3/properties/content/items/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("tool-result" !== data52){
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/type",schemaPath:"#/oneOf/3/properties/content/items/properties/type/const",keyword:"const",params:{allowedValue: "tool-result"}}];
return false;
}
var valid50 = _errs169 === errors;
}
else {
var valid50 = true;
}
if(valid50){
if(data51.toolCallId !== undefined){
let data53 = data51.toolCallId;
const _errs171 = errors;
if(errors === _errs171){
if(typeof data53 === "string"){
if(data53.length < 1){
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/toolCallId",schemaPath:"#/oneOf/3/properties/content/items/properties/toolCallId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/toolCallId",schemaPath:"#/oneOf/3/properties/content/items/properties/toolCallId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid50 = _errs171 === errors;
}
else {
var valid50 = true;
}
if(valid50){
if(data51.toolName !== undefined){
let data54 = data51.toolName;
const _errs173 = errors;
if(errors === _errs173){
if(typeof data54 === "string"){
if(data54.length < 1){
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/toolName",schemaPath:"#/oneOf/3/properties/content/items/properties/toolName/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/toolName",schemaPath:"#/oneOf/3/properties/content/items/properties/toolName/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid50 = _errs173 === errors;
}
else {
var valid50 = true;
}
if(valid50){
if(data51.output !== undefined){
const _errs175 = errors;
if(!(validate22(data51.output, {instancePath:instancePath+"/content/" + i2+"/output",parentData:data51,parentDataProperty:"output",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid50 = _errs175 === errors;
}
else {
var valid50 = true;
}
if(valid50){
if(data51.isError !== undefined){
const _errs176 = errors;
if(typeof data51.isError !== "boolean"){
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/isError",schemaPath:"#/oneOf/3/properties/content/items/properties/isError/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
var valid50 = _errs176 === errors;
}
else {
var valid50 = true;
}
if(valid50){
if(data51.rejected !== undefined){
let data57 = data51.rejected;
const _errs178 = errors;
if(typeof data57 !== "boolean"){
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/rejected",schemaPath:"#/oneOf/3/properties/content/items/properties/rejected/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
if(true !== data57){
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/rejected",schemaPath:"#/oneOf/3/properties/content/items/properties/rejected/const",keyword:"const",params:{allowedValue: true}}];
return false;
}
var valid50 = _errs178 === errors;
}
else {
var valid50 = true;
}
if(valid50){
if(data51.providerMetadata !== undefined){
let data58 = data51.providerMetadata;
const _errs180 = errors;
if(errors === _errs180){
if(data58 && typeof data58 == "object" && !Array.isArray(data58)){
for(const key32 in data58){
const _errs182 = errors;
if(typeof key32 !== "string"){
const err89 = {instancePath:instancePath+"/content/" + i2+"/providerMetadata",schemaPath:"#/oneOf/3/properties/content/items/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key32};
if(vErrors === null){
vErrors = [err89];
}
else {
vErrors.push(err89);
}
errors++;
}
var valid51 = _errs182 === errors;
if(!valid51){
const err90 = {instancePath:instancePath+"/content/" + i2+"/providerMetadata",schemaPath:"#/oneOf/3/properties/content/items/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key32}};
if(vErrors === null){
vErrors = [err90];
}
else {
vErrors.push(err90);
}
errors++;
validate21.errors = vErrors;
return false;
break;
}
}
if(valid51){
for(const key33 in data58){
const _errs185 = errors;
if(!(validate22(data58[key33], {instancePath:instancePath+"/content/" + i2+"/providerMetadata/" + key33.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data58,parentDataProperty:key33,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid52 = _errs185 === errors;
if(!valid52){
break;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/content/" + i2+"/providerMetadata",schemaPath:"#/oneOf/3/properties/content/items/properties/providerMetadata/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid50 = _errs180 === errors;
}
else {
var valid50 = true;
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/content/" + i2,schemaPath:"#/oneOf/3/properties/content/items/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid49 = _errs166 === errors;
if(!valid49){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/content",schemaPath:"#/oneOf/3/properties/content/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid48 = _errs164 === errors;
}
else {
var valid48 = true;
}
if(valid48){
if(data.providerMetadata !== undefined){
let data60 = data.providerMetadata;
const _errs186 = errors;
if(errors === _errs186){
if(data60 && typeof data60 == "object" && !Array.isArray(data60)){
for(const key34 in data60){
const _errs188 = errors;
if(typeof key34 !== "string"){
const err91 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/3/properties/providerMetadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key34};
if(vErrors === null){
vErrors = [err91];
}
else {
vErrors.push(err91);
}
errors++;
}
var valid53 = _errs188 === errors;
if(!valid53){
const err92 = {instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/3/properties/providerMetadata/propertyNames",keyword:"propertyNames",params:{propertyName: key34}};
if(vErrors === null){
vErrors = [err92];
}
else {
vErrors.push(err92);
}
errors++;
validate21.errors = vErrors;
return false;
break;
}
}
if(valid53){
for(const key35 in data60){
const _errs191 = errors;
if(!(validate22(data60[key35], {instancePath:instancePath+"/providerMetadata/" + key35.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data60,parentDataProperty:key35,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid54 = _errs191 === errors;
if(!valid54){
break;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/providerMetadata",schemaPath:"#/oneOf/3/properties/providerMetadata/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid48 = _errs186 === errors;
}
else {
var valid48 = true;
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/oneOf/3/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props1 !== true){
props1 = true;
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "role", tagValue: tag0}}];
return false;
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "role", tagValue: tag0}}];
return false;
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
validate21.errors = vErrors;
evaluated0.props = props1;
return errors === 0;
}
validate21.evaluated = {"dynamicProps":true,"dynamicItems":false};

const schema34 = {"oneOf":[{"type":"object","properties":{"kind":{"type":"string","const":"approval"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"approved":{"type":"boolean"},"journal":{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},"deadline":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"},"description":{"type":"string"},"allowedDecisions":{"minItems":1,"type":"array","items":{"type":"string","enum":["approve","edit","reject","input"]}},"inDoubt":{"type":"boolean","const":true}},"required":["kind","toolCallId","toolName","args"],"additionalProperties":false},{"type":"object","properties":{"kind":{"type":"string","const":"input"},"request":{"$ref":"#/$defs/JsonValue"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"approved":{"type":"boolean"},"journal":{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},"deadline":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"},"description":{"type":"string"},"allowedDecisions":{"minItems":1,"type":"array","items":{"type":"string","enum":["approve","edit","reject","input"]}}},"required":["kind","request","toolCallId","toolName","args"],"additionalProperties":false},{"type":"object","properties":{"kind":{"type":"string","const":"agent"},"child":{"$ref":"#"},"toolCallId":{"type":"string","minLength":1},"toolName":{"type":"string","minLength":1},"args":{"$ref":"#/$defs/JsonValue"},"approved":{"type":"boolean"},"journal":{"type":"array","items":{"$ref":"#/$defs/JsonValue"}},"deadline":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"}},"required":["kind","child","toolCallId","toolName","args"],"additionalProperties":false}],"type":"object","discriminator":{"propertyName":"kind"}};
const pattern4 = new RegExp("^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$", "u");
const root0 = {validate: validate20};

function validate38(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate38.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
const tag0 = data.kind;
if(typeof tag0 == "string"){
if(tag0 === "approval"){
const _errs2 = errors;
if(errors === _errs2){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((((data.kind === undefined) && (missing0 = "kind")) || ((data.toolCallId === undefined) && (missing0 = "toolCallId"))) || ((data.toolName === undefined) && (missing0 = "toolName"))) || ((data.args === undefined) && (missing0 = "args"))){
validate38.errors = [{instancePath,schemaPath:"#/oneOf/0/required",keyword:"required",params:{missingProperty: missing0}}];
return false;
}
else {
const _errs4 = errors;
for(const key0 in data){
if(!(func1.call(schema34.oneOf[0].properties, key0))){
validate38.errors = [{instancePath,schemaPath:"#/oneOf/0/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0}}];
return false;
break;
}
}
if(_errs4 === errors){
if(data.kind !== undefined){
let data0 = data.kind;
const _errs5 = errors;
if(typeof data0 !== "string"){
validate38.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/oneOf/0/properties/kind/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("approval" !== data0){
validate38.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/oneOf/0/properties/kind/const",keyword:"const",params:{allowedValue: "approval"}}];
return false;
}
var valid2 = _errs5 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.toolCallId !== undefined){
let data1 = data.toolCallId;
const _errs7 = errors;
if(errors === _errs7){
if(typeof data1 === "string"){
if(data1.length < 1){
validate38.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/oneOf/0/properties/toolCallId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/oneOf/0/properties/toolCallId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid2 = _errs7 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.toolName !== undefined){
let data2 = data.toolName;
const _errs9 = errors;
if(errors === _errs9){
if(typeof data2 === "string"){
if(data2.length < 1){
validate38.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/oneOf/0/properties/toolName/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/oneOf/0/properties/toolName/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid2 = _errs9 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.args !== undefined){
const _errs11 = errors;
if(!(validate22(data.args, {instancePath:instancePath+"/args",parentData:data,parentDataProperty:"args",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid2 = _errs11 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.approved !== undefined){
const _errs12 = errors;
if(typeof data.approved !== "boolean"){
validate38.errors = [{instancePath:instancePath+"/approved",schemaPath:"#/oneOf/0/properties/approved/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
var valid2 = _errs12 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.journal !== undefined){
let data5 = data.journal;
const _errs14 = errors;
if(errors === _errs14){
if(Array.isArray(data5)){
var valid3 = true;
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
const _errs16 = errors;
if(!(validate22(data5[i0], {instancePath:instancePath+"/journal/" + i0,parentData:data5,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid3 = _errs16 === errors;
if(!valid3){
break;
}
}
}
else {
validate38.errors = [{instancePath:instancePath+"/journal",schemaPath:"#/oneOf/0/properties/journal/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid2 = _errs14 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.deadline !== undefined){
let data7 = data.deadline;
const _errs17 = errors;
if(errors === _errs17){
if(errors === _errs17){
if(typeof data7 === "string"){
if(!pattern4.test(data7)){
validate38.errors = [{instancePath:instancePath+"/deadline",schemaPath:"#/oneOf/0/properties/deadline/pattern",keyword:"pattern",params:{pattern: "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/deadline",schemaPath:"#/oneOf/0/properties/deadline/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
}
var valid2 = _errs17 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.description !== undefined){
const _errs19 = errors;
if(typeof data.description !== "string"){
validate38.errors = [{instancePath:instancePath+"/description",schemaPath:"#/oneOf/0/properties/description/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid2 = _errs19 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.allowedDecisions !== undefined){
let data9 = data.allowedDecisions;
const _errs21 = errors;
if(errors === _errs21){
if(Array.isArray(data9)){
if(data9.length < 1){
validate38.errors = [{instancePath:instancePath+"/allowedDecisions",schemaPath:"#/oneOf/0/properties/allowedDecisions/minItems",keyword:"minItems",params:{limit: 1}}];
return false;
}
else {
var valid4 = true;
const len1 = data9.length;
for(let i1=0; i1<len1; i1++){
let data10 = data9[i1];
const _errs23 = errors;
if(typeof data10 !== "string"){
validate38.errors = [{instancePath:instancePath+"/allowedDecisions/" + i1,schemaPath:"#/oneOf/0/properties/allowedDecisions/items/type",keyword:"type",params:{type: "string"}}];
return false;
}
if(!((((data10 === "approve") || (data10 === "edit")) || (data10 === "reject")) || (data10 === "input"))){
validate38.errors = [{instancePath:instancePath+"/allowedDecisions/" + i1,schemaPath:"#/oneOf/0/properties/allowedDecisions/items/enum",keyword:"enum",params:{allowedValues: schema34.oneOf[0].properties.allowedDecisions.items.enum}}];
return false;
}
var valid4 = _errs23 === errors;
if(!valid4){
break;
}
}
}
}
else {
validate38.errors = [{instancePath:instancePath+"/allowedDecisions",schemaPath:"#/oneOf/0/properties/allowedDecisions/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid2 = _errs21 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.inDoubt !== undefined){
let data11 = data.inDoubt;
const _errs25 = errors;
if(typeof data11 !== "boolean"){
validate38.errors = [{instancePath:instancePath+"/inDoubt",schemaPath:"#/oneOf/0/properties/inDoubt/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
if(true !== data11){
validate38.errors = [{instancePath:instancePath+"/inDoubt",schemaPath:"#/oneOf/0/properties/inDoubt/const",keyword:"const",params:{allowedValue: true}}];
return false;
}
var valid2 = _errs25 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate38.errors = [{instancePath,schemaPath:"#/oneOf/0/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var props2 = true;
}
else if(tag0 === "input"){
const _errs27 = errors;
if(errors === _errs27){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing1;
if((((((data.kind === undefined) && (missing1 = "kind")) || ((data.request === undefined) && (missing1 = "request"))) || ((data.toolCallId === undefined) && (missing1 = "toolCallId"))) || ((data.toolName === undefined) && (missing1 = "toolName"))) || ((data.args === undefined) && (missing1 = "args"))){
validate38.errors = [{instancePath,schemaPath:"#/oneOf/1/required",keyword:"required",params:{missingProperty: missing1}}];
return false;
}
else {
const _errs29 = errors;
for(const key1 in data){
if(!(func1.call(schema34.oneOf[1].properties, key1))){
validate38.errors = [{instancePath,schemaPath:"#/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1}}];
return false;
break;
}
}
if(_errs29 === errors){
if(data.kind !== undefined){
let data12 = data.kind;
const _errs30 = errors;
if(typeof data12 !== "string"){
validate38.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/oneOf/1/properties/kind/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("input" !== data12){
validate38.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/oneOf/1/properties/kind/const",keyword:"const",params:{allowedValue: "input"}}];
return false;
}
var valid6 = _errs30 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.request !== undefined){
const _errs32 = errors;
if(!(validate22(data.request, {instancePath:instancePath+"/request",parentData:data,parentDataProperty:"request",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid6 = _errs32 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.toolCallId !== undefined){
let data14 = data.toolCallId;
const _errs33 = errors;
if(errors === _errs33){
if(typeof data14 === "string"){
if(data14.length < 1){
validate38.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/oneOf/1/properties/toolCallId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/oneOf/1/properties/toolCallId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid6 = _errs33 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.toolName !== undefined){
let data15 = data.toolName;
const _errs35 = errors;
if(errors === _errs35){
if(typeof data15 === "string"){
if(data15.length < 1){
validate38.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/oneOf/1/properties/toolName/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/oneOf/1/properties/toolName/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid6 = _errs35 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.args !== undefined){
const _errs37 = errors;
if(!(validate22(data.args, {instancePath:instancePath+"/args",parentData:data,parentDataProperty:"args",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid6 = _errs37 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.approved !== undefined){
const _errs38 = errors;
if(typeof data.approved !== "boolean"){
validate38.errors = [{instancePath:instancePath+"/approved",schemaPath:"#/oneOf/1/properties/approved/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
var valid6 = _errs38 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.journal !== undefined){
let data18 = data.journal;
const _errs40 = errors;
if(errors === _errs40){
if(Array.isArray(data18)){
var valid7 = true;
const len2 = data18.length;
for(let i2=0; i2<len2; i2++){
const _errs42 = errors;
if(!(validate22(data18[i2], {instancePath:instancePath+"/journal/" + i2,parentData:data18,parentDataProperty:i2,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid7 = _errs42 === errors;
if(!valid7){
break;
}
}
}
else {
validate38.errors = [{instancePath:instancePath+"/journal",schemaPath:"#/oneOf/1/properties/journal/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid6 = _errs40 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.deadline !== undefined){
let data20 = data.deadline;
const _errs43 = errors;
if(errors === _errs43){
if(errors === _errs43){
if(typeof data20 === "string"){
if(!pattern4.test(data20)){
validate38.errors = [{instancePath:instancePath+"/deadline",schemaPath:"#/oneOf/1/properties/deadline/pattern",keyword:"pattern",params:{pattern: "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/deadline",schemaPath:"#/oneOf/1/properties/deadline/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
}
var valid6 = _errs43 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.description !== undefined){
const _errs45 = errors;
if(typeof data.description !== "string"){
validate38.errors = [{instancePath:instancePath+"/description",schemaPath:"#/oneOf/1/properties/description/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid6 = _errs45 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.allowedDecisions !== undefined){
let data22 = data.allowedDecisions;
const _errs47 = errors;
if(errors === _errs47){
if(Array.isArray(data22)){
if(data22.length < 1){
validate38.errors = [{instancePath:instancePath+"/allowedDecisions",schemaPath:"#/oneOf/1/properties/allowedDecisions/minItems",keyword:"minItems",params:{limit: 1}}];
return false;
}
else {
var valid8 = true;
const len3 = data22.length;
for(let i3=0; i3<len3; i3++){
let data23 = data22[i3];
const _errs49 = errors;
if(typeof data23 !== "string"){
validate38.errors = [{instancePath:instancePath+"/allowedDecisions/" + i3,schemaPath:"#/oneOf/1/properties/allowedDecisions/items/type",keyword:"type",params:{type: "string"}}];
return false;
}
if(!((((data23 === "approve") || (data23 === "edit")) || (data23 === "reject")) || (data23 === "input"))){
validate38.errors = [{instancePath:instancePath+"/allowedDecisions/" + i3,schemaPath:"#/oneOf/1/properties/allowedDecisions/items/enum",keyword:"enum",params:{allowedValues: schema34.oneOf[1].properties.allowedDecisions.items.enum}}];
return false;
}
var valid8 = _errs49 === errors;
if(!valid8){
break;
}
}
}
}
else {
validate38.errors = [{instancePath:instancePath+"/allowedDecisions",schemaPath:"#/oneOf/1/properties/allowedDecisions/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid6 = _errs47 === errors;
}
else {
var valid6 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate38.errors = [{instancePath,schemaPath:"#/oneOf/1/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props2 !== true){
props2 = true;
}
}
else if(tag0 === "agent"){
const _errs51 = errors;
if(errors === _errs51){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing2;
if((((((data.kind === undefined) && (missing2 = "kind")) || ((data.child === undefined) && (missing2 = "child"))) || ((data.toolCallId === undefined) && (missing2 = "toolCallId"))) || ((data.toolName === undefined) && (missing2 = "toolName"))) || ((data.args === undefined) && (missing2 = "args"))){
validate38.errors = [{instancePath,schemaPath:"#/oneOf/2/required",keyword:"required",params:{missingProperty: missing2}}];
return false;
}
else {
const _errs53 = errors;
for(const key2 in data){
if(!((((((((key2 === "kind") || (key2 === "child")) || (key2 === "toolCallId")) || (key2 === "toolName")) || (key2 === "args")) || (key2 === "approved")) || (key2 === "journal")) || (key2 === "deadline"))){
validate38.errors = [{instancePath,schemaPath:"#/oneOf/2/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2}}];
return false;
break;
}
}
if(_errs53 === errors){
if(data.kind !== undefined){
let data24 = data.kind;
const _errs54 = errors;
if(typeof data24 !== "string"){
validate38.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/oneOf/2/properties/kind/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("agent" !== data24){
validate38.errors = [{instancePath:instancePath+"/kind",schemaPath:"#/oneOf/2/properties/kind/const",keyword:"const",params:{allowedValue: "agent"}}];
return false;
}
var valid10 = _errs54 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data.child !== undefined){
const _errs56 = errors;
if(!(root0.validate(data.child, {instancePath:instancePath+"/child",parentData:data,parentDataProperty:"child",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? root0.validate.errors : vErrors.concat(root0.validate.errors);
errors = vErrors.length;
}
var valid10 = _errs56 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data.toolCallId !== undefined){
let data26 = data.toolCallId;
const _errs57 = errors;
if(errors === _errs57){
if(typeof data26 === "string"){
if(data26.length < 1){
validate38.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/oneOf/2/properties/toolCallId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/oneOf/2/properties/toolCallId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid10 = _errs57 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data.toolName !== undefined){
let data27 = data.toolName;
const _errs59 = errors;
if(errors === _errs59){
if(typeof data27 === "string"){
if(data27.length < 1){
validate38.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/oneOf/2/properties/toolName/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/oneOf/2/properties/toolName/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid10 = _errs59 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data.args !== undefined){
const _errs61 = errors;
if(!(validate22(data.args, {instancePath:instancePath+"/args",parentData:data,parentDataProperty:"args",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid10 = _errs61 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data.approved !== undefined){
const _errs62 = errors;
if(typeof data.approved !== "boolean"){
validate38.errors = [{instancePath:instancePath+"/approved",schemaPath:"#/oneOf/2/properties/approved/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
var valid10 = _errs62 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data.journal !== undefined){
let data30 = data.journal;
const _errs64 = errors;
if(errors === _errs64){
if(Array.isArray(data30)){
var valid11 = true;
const len4 = data30.length;
for(let i4=0; i4<len4; i4++){
const _errs66 = errors;
if(!(validate22(data30[i4], {instancePath:instancePath+"/journal/" + i4,parentData:data30,parentDataProperty:i4,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid11 = _errs66 === errors;
if(!valid11){
break;
}
}
}
else {
validate38.errors = [{instancePath:instancePath+"/journal",schemaPath:"#/oneOf/2/properties/journal/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid10 = _errs64 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data.deadline !== undefined){
let data32 = data.deadline;
const _errs67 = errors;
if(errors === _errs67){
if(errors === _errs67){
if(typeof data32 === "string"){
if(!pattern4.test(data32)){
validate38.errors = [{instancePath:instancePath+"/deadline",schemaPath:"#/oneOf/2/properties/deadline/pattern",keyword:"pattern",params:{pattern: "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"}}];
return false;
}
}
else {
validate38.errors = [{instancePath:instancePath+"/deadline",schemaPath:"#/oneOf/2/properties/deadline/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
}
var valid10 = _errs67 === errors;
}
else {
var valid10 = true;
}
}
}
}
}
}
}
}
}
}
}
else {
validate38.errors = [{instancePath,schemaPath:"#/oneOf/2/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props2 !== true){
props2 = true;
}
}
else {
validate38.errors = [{instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "kind", tagValue: tag0}}];
return false;
}
}
else {
validate38.errors = [{instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "kind", tagValue: tag0}}];
return false;
}
}
else {
validate38.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
validate38.errors = vErrors;
evaluated0.props = props2;
return errors === 0;
}
validate38.evaluated = {"dynamicProps":true,"dynamicItems":false};

const schema36 = {"type":"object","properties":{"actionId":{"type":"string","minLength":1},"type":{"type":"string","enum":["approve","reject","input"]},"toolName":{"type":"string","minLength":1},"toolCallId":{"type":"string","minLength":1},"at":{"type":"string"},"by":{"type":"string"},"reason":{"type":"string"},"args":{"$ref":"#/$defs/JsonValue"},"editedArgs":{"$ref":"#/$defs/JsonValue"},"value":{"$ref":"#/$defs/JsonValue"}},"required":["actionId","type","toolName","toolCallId","at"],"additionalProperties":false};

function validate50(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate50.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((((((data.actionId === undefined) && (missing0 = "actionId")) || ((data.type === undefined) && (missing0 = "type"))) || ((data.toolName === undefined) && (missing0 = "toolName"))) || ((data.toolCallId === undefined) && (missing0 = "toolCallId"))) || ((data.at === undefined) && (missing0 = "at"))){
validate50.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0}}];
return false;
}
else {
const _errs1 = errors;
for(const key0 in data){
if(!(func1.call(schema36.properties, key0))){
validate50.errors = [{instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0}}];
return false;
break;
}
}
if(_errs1 === errors){
if(data.actionId !== undefined){
let data0 = data.actionId;
const _errs2 = errors;
if(errors === _errs2){
if(typeof data0 === "string"){
if(data0.length < 1){
validate50.errors = [{instancePath:instancePath+"/actionId",schemaPath:"#/properties/actionId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate50.errors = [{instancePath:instancePath+"/actionId",schemaPath:"#/properties/actionId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.type !== undefined){
let data1 = data.type;
const _errs4 = errors;
if(typeof data1 !== "string"){
validate50.errors = [{instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if(!(((data1 === "approve") || (data1 === "reject")) || (data1 === "input"))){
validate50.errors = [{instancePath:instancePath+"/type",schemaPath:"#/properties/type/enum",keyword:"enum",params:{allowedValues: schema36.properties.type.enum}}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.toolName !== undefined){
let data2 = data.toolName;
const _errs6 = errors;
if(errors === _errs6){
if(typeof data2 === "string"){
if(data2.length < 1){
validate50.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/properties/toolName/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate50.errors = [{instancePath:instancePath+"/toolName",schemaPath:"#/properties/toolName/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.toolCallId !== undefined){
let data3 = data.toolCallId;
const _errs8 = errors;
if(errors === _errs8){
if(typeof data3 === "string"){
if(data3.length < 1){
validate50.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/properties/toolCallId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate50.errors = [{instancePath:instancePath+"/toolCallId",schemaPath:"#/properties/toolCallId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.at !== undefined){
const _errs10 = errors;
if(typeof data.at !== "string"){
validate50.errors = [{instancePath:instancePath+"/at",schemaPath:"#/properties/at/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.by !== undefined){
const _errs12 = errors;
if(typeof data.by !== "string"){
validate50.errors = [{instancePath:instancePath+"/by",schemaPath:"#/properties/by/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.reason !== undefined){
const _errs14 = errors;
if(typeof data.reason !== "string"){
validate50.errors = [{instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.args !== undefined){
const _errs16 = errors;
if(!(validate22(data.args, {instancePath:instancePath+"/args",parentData:data,parentDataProperty:"args",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.editedArgs !== undefined){
const _errs17 = errors;
if(!(validate22(data.editedArgs, {instancePath:instancePath+"/editedArgs",parentData:data,parentDataProperty:"editedArgs",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid0 = _errs17 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.value !== undefined){
const _errs18 = errors;
if(!(validate22(data.value, {instancePath:instancePath+"/value",parentData:data,parentDataProperty:"value",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate50.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
validate50.errors = vErrors;
return errors === 0;
}
validate50.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((((((((((((((data.format === undefined) && (missing0 = "format")) || ((data.version === undefined) && (missing0 = "version"))) || ((data.id === undefined) && (missing0 = "id"))) || ((data.runId === undefined) && (missing0 = "runId"))) || ((data.agent === undefined) && (missing0 = "agent"))) || ((data.messages === undefined) && (missing0 = "messages"))) || ((data.pending === undefined) && (missing0 = "pending"))) || ((data.done === undefined) && (missing0 = "done"))) || ((data.step === undefined) && (missing0 = "step"))) || ((data.usage === undefined) && (missing0 = "usage"))) || ((data.suspendedBy === undefined) && (missing0 = "suspendedBy"))) || ((data.metadata === undefined) && (missing0 = "metadata"))) || ((data.decisions === undefined) && (missing0 = "decisions"))) || ((data.createdAt === undefined) && (missing0 = "createdAt"))){
validate20.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0}}];
return false;
}
else {
const _errs1 = errors;
for(const key0 in data){
if(!(func1.call(schema31.properties, key0))){
validate20.errors = [{instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0}}];
return false;
break;
}
}
if(_errs1 === errors){
if(data.format !== undefined){
let data0 = data.format;
const _errs2 = errors;
if(typeof data0 !== "string"){
validate20.errors = [{instancePath:instancePath+"/format",schemaPath:"#/properties/format/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("agent-continuation" !== data0){
validate20.errors = [{instancePath:instancePath+"/format",schemaPath:"#/properties/format/const",keyword:"const",params:{allowedValue: "agent-continuation"}}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.version !== undefined){
let data1 = data.version;
const _errs4 = errors;
if(!(typeof data1 == "number")){
validate20.errors = [{instancePath:instancePath+"/version",schemaPath:"#/properties/version/type",keyword:"type",params:{type: "number"}}];
return false;
}
if(1 !== data1){
validate20.errors = [{instancePath:instancePath+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue: 1}}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.id !== undefined){
let data2 = data.id;
const _errs6 = errors;
if(errors === _errs6){
if(typeof data2 === "string"){
if(data2.length < 1){
validate20.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.runId !== undefined){
let data3 = data.runId;
const _errs8 = errors;
if(errors === _errs8){
if(typeof data3 === "string"){
if(data3.length < 1){
validate20.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.agent !== undefined){
let data4 = data.agent;
const _errs10 = errors;
if(errors === _errs10){
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
let missing1;
if(((data4.name === undefined) && (missing1 = "name")) || ((data4.framework === undefined) && (missing1 = "framework"))){
validate20.errors = [{instancePath:instancePath+"/agent",schemaPath:"#/properties/agent/required",keyword:"required",params:{missingProperty: missing1}}];
return false;
}
else {
const _errs12 = errors;
for(const key1 in data4){
if(!(((key1 === "name") || (key1 === "framework")) || (key1 === "fingerprint"))){
validate20.errors = [{instancePath:instancePath+"/agent",schemaPath:"#/properties/agent/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1}}];
return false;
break;
}
}
if(_errs12 === errors){
if(data4.name !== undefined){
let data5 = data4.name;
const _errs13 = errors;
if(errors === _errs13){
if(typeof data5 === "string"){
if(data5.length < 1){
validate20.errors = [{instancePath:instancePath+"/agent/name",schemaPath:"#/properties/agent/properties/name/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/agent/name",schemaPath:"#/properties/agent/properties/name/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid1 = _errs13 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data4.framework !== undefined){
let data6 = data4.framework;
const _errs15 = errors;
if(errors === _errs15){
if(typeof data6 === "string"){
if(data6.length < 1){
validate20.errors = [{instancePath:instancePath+"/agent/framework",schemaPath:"#/properties/agent/properties/framework/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/agent/framework",schemaPath:"#/properties/agent/properties/framework/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid1 = _errs15 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data4.fingerprint !== undefined){
const _errs17 = errors;
if(typeof data4.fingerprint !== "string"){
validate20.errors = [{instancePath:instancePath+"/agent/fingerprint",schemaPath:"#/properties/agent/properties/fingerprint/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid1 = _errs17 === errors;
}
else {
var valid1 = true;
}
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/agent",schemaPath:"#/properties/agent/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.messages !== undefined){
let data8 = data.messages;
const _errs19 = errors;
if(errors === _errs19){
if(Array.isArray(data8)){
var valid2 = true;
const len0 = data8.length;
for(let i0=0; i0<len0; i0++){
const _errs21 = errors;
if(!(validate21(data8[i0], {instancePath:instancePath+"/messages/" + i0,parentData:data8,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
var valid2 = _errs21 === errors;
if(!valid2){
break;
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/messages",schemaPath:"#/properties/messages/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid0 = _errs19 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.pending !== undefined){
let data10 = data.pending;
const _errs22 = errors;
if(errors === _errs22){
if(Array.isArray(data10)){
var valid3 = true;
const len1 = data10.length;
for(let i1=0; i1<len1; i1++){
const _errs24 = errors;
if(!(validate38(data10[i1], {instancePath:instancePath+"/pending/" + i1,parentData:data10,parentDataProperty:i1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate38.errors : vErrors.concat(validate38.errors);
errors = vErrors.length;
}
var valid3 = _errs24 === errors;
if(!valid3){
break;
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/pending",schemaPath:"#/properties/pending/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid0 = _errs22 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.done !== undefined){
let data12 = data.done;
const _errs25 = errors;
if(errors === _errs25){
if(Array.isArray(data12)){
var valid4 = true;
const len2 = data12.length;
for(let i2=0; i2<len2; i2++){
let data13 = data12[i2];
const _errs27 = errors;
if(errors === _errs27){
if(data13 && typeof data13 == "object" && !Array.isArray(data13)){
let missing2;
if((((data13.toolCallId === undefined) && (missing2 = "toolCallId")) || ((data13.toolName === undefined) && (missing2 = "toolName"))) || ((data13.output === undefined) && (missing2 = "output"))){
validate20.errors = [{instancePath:instancePath+"/done/" + i2,schemaPath:"#/properties/done/items/required",keyword:"required",params:{missingProperty: missing2}}];
return false;
}
else {
const _errs29 = errors;
for(const key2 in data13){
if(!(((((key2 === "toolCallId") || (key2 === "toolName")) || (key2 === "output")) || (key2 === "isError")) || (key2 === "rejected"))){
validate20.errors = [{instancePath:instancePath+"/done/" + i2,schemaPath:"#/properties/done/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2}}];
return false;
break;
}
}
if(_errs29 === errors){
if(data13.toolCallId !== undefined){
let data14 = data13.toolCallId;
const _errs30 = errors;
if(errors === _errs30){
if(typeof data14 === "string"){
if(data14.length < 1){
validate20.errors = [{instancePath:instancePath+"/done/" + i2+"/toolCallId",schemaPath:"#/properties/done/items/properties/toolCallId/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/done/" + i2+"/toolCallId",schemaPath:"#/properties/done/items/properties/toolCallId/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid5 = _errs30 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data13.toolName !== undefined){
let data15 = data13.toolName;
const _errs32 = errors;
if(errors === _errs32){
if(typeof data15 === "string"){
if(data15.length < 1){
validate20.errors = [{instancePath:instancePath+"/done/" + i2+"/toolName",schemaPath:"#/properties/done/items/properties/toolName/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/done/" + i2+"/toolName",schemaPath:"#/properties/done/items/properties/toolName/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid5 = _errs32 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data13.output !== undefined){
const _errs34 = errors;
if(!(validate22(data13.output, {instancePath:instancePath+"/done/" + i2+"/output",parentData:data13,parentDataProperty:"output",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid5 = _errs34 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data13.isError !== undefined){
const _errs35 = errors;
if(typeof data13.isError !== "boolean"){
validate20.errors = [{instancePath:instancePath+"/done/" + i2+"/isError",schemaPath:"#/properties/done/items/properties/isError/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
var valid5 = _errs35 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data13.rejected !== undefined){
let data18 = data13.rejected;
const _errs37 = errors;
if(typeof data18 !== "boolean"){
validate20.errors = [{instancePath:instancePath+"/done/" + i2+"/rejected",schemaPath:"#/properties/done/items/properties/rejected/type",keyword:"type",params:{type: "boolean"}}];
return false;
}
if(true !== data18){
validate20.errors = [{instancePath:instancePath+"/done/" + i2+"/rejected",schemaPath:"#/properties/done/items/properties/rejected/const",keyword:"const",params:{allowedValue: true}}];
return false;
}
var valid5 = _errs37 === errors;
}
else {
var valid5 = true;
}
}
}
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/done/" + i2,schemaPath:"#/properties/done/items/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid4 = _errs27 === errors;
if(!valid4){
break;
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/done",schemaPath:"#/properties/done/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid0 = _errs25 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.step !== undefined){
let data19 = data.step;
const _errs39 = errors;
if(!((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19)))){
validate20.errors = [{instancePath:instancePath+"/step",schemaPath:"#/properties/step/type",keyword:"type",params:{type: "integer"}}];
return false;
}
if(errors === _errs39){
if(typeof data19 == "number"){
if(data19 > 9007199254740991 || isNaN(data19)){
validate20.errors = [{instancePath:instancePath+"/step",schemaPath:"#/properties/step/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991}}];
return false;
}
else {
if(data19 < 0 || isNaN(data19)){
validate20.errors = [{instancePath:instancePath+"/step",schemaPath:"#/properties/step/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}}];
return false;
}
}
}
}
var valid0 = _errs39 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.usage !== undefined){
let data20 = data.usage;
const _errs41 = errors;
const _errs42 = errors;
if(errors === _errs42){
if(data20 && typeof data20 == "object" && !Array.isArray(data20)){
let missing3;
if((((data20.inputTokens === undefined) && (missing3 = "inputTokens")) || ((data20.outputTokens === undefined) && (missing3 = "outputTokens"))) || ((data20.totalTokens === undefined) && (missing3 = "totalTokens"))){
validate20.errors = [{instancePath:instancePath+"/usage",schemaPath:"#/$defs/Usage/required",keyword:"required",params:{missingProperty: missing3}}];
return false;
}
else {
if(data20.inputTokens !== undefined){
let data21 = data20.inputTokens;
const _errs44 = errors;
if(!((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21)))){
validate20.errors = [{instancePath:instancePath+"/usage/inputTokens",schemaPath:"#/$defs/Usage/properties/inputTokens/type",keyword:"type",params:{type: "integer"}}];
return false;
}
if(errors === _errs44){
if(typeof data21 == "number"){
if(data21 > 9007199254740991 || isNaN(data21)){
validate20.errors = [{instancePath:instancePath+"/usage/inputTokens",schemaPath:"#/$defs/Usage/properties/inputTokens/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991}}];
return false;
}
else {
if(data21 < 0 || isNaN(data21)){
validate20.errors = [{instancePath:instancePath+"/usage/inputTokens",schemaPath:"#/$defs/Usage/properties/inputTokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}}];
return false;
}
}
}
}
var valid7 = _errs44 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data20.outputTokens !== undefined){
let data22 = data20.outputTokens;
const _errs46 = errors;
if(!((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22)))){
validate20.errors = [{instancePath:instancePath+"/usage/outputTokens",schemaPath:"#/$defs/Usage/properties/outputTokens/type",keyword:"type",params:{type: "integer"}}];
return false;
}
if(errors === _errs46){
if(typeof data22 == "number"){
if(data22 > 9007199254740991 || isNaN(data22)){
validate20.errors = [{instancePath:instancePath+"/usage/outputTokens",schemaPath:"#/$defs/Usage/properties/outputTokens/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991}}];
return false;
}
else {
if(data22 < 0 || isNaN(data22)){
validate20.errors = [{instancePath:instancePath+"/usage/outputTokens",schemaPath:"#/$defs/Usage/properties/outputTokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}}];
return false;
}
}
}
}
var valid7 = _errs46 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data20.totalTokens !== undefined){
let data23 = data20.totalTokens;
const _errs48 = errors;
if(!((typeof data23 == "number") && (!(data23 % 1) && !isNaN(data23)))){
validate20.errors = [{instancePath:instancePath+"/usage/totalTokens",schemaPath:"#/$defs/Usage/properties/totalTokens/type",keyword:"type",params:{type: "integer"}}];
return false;
}
if(errors === _errs48){
if(typeof data23 == "number"){
if(data23 > 9007199254740991 || isNaN(data23)){
validate20.errors = [{instancePath:instancePath+"/usage/totalTokens",schemaPath:"#/$defs/Usage/properties/totalTokens/maximum",keyword:"maximum",params:{comparison: "<=", limit: 9007199254740991}}];
return false;
}
else {
if(data23 < 0 || isNaN(data23)){
validate20.errors = [{instancePath:instancePath+"/usage/totalTokens",schemaPath:"#/$defs/Usage/properties/totalTokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}}];
return false;
}
}
}
}
var valid7 = _errs48 === errors;
}
else {
var valid7 = true;
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/usage",schemaPath:"#/$defs/Usage/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid0 = _errs41 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.suspendedBy !== undefined){
let data24 = data.suspendedBy;
const _errs50 = errors;
if(errors === _errs50){
if(data24 && typeof data24 == "object" && !Array.isArray(data24)){
const tag0 = data24.type;
if(typeof tag0 == "string"){
if(tag0 === "actions"){
const _errs53 = errors;
if(errors === _errs53){
if(data24 && typeof data24 == "object" && !Array.isArray(data24)){
let missing4;
if(((data24.type === undefined) && (missing4 = "type")) || ((data24.kinds === undefined) && (missing4 = "kinds"))){
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/0/required",keyword:"required",params:{missingProperty: missing4}}];
return false;
}
else {
const _errs55 = errors;
for(const key3 in data24){
if(!((key3 === "type") || (key3 === "kinds"))){
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/0/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3}}];
return false;
break;
}
}
if(_errs55 === errors){
if(data24.type !== undefined){
let data25 = data24.type;
const _errs56 = errors;
if(typeof data25 !== "string"){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/type",schemaPath:"#/properties/suspendedBy/oneOf/0/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("actions" !== data25){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/type",schemaPath:"#/properties/suspendedBy/oneOf/0/properties/type/const",keyword:"const",params:{allowedValue: "actions"}}];
return false;
}
var valid10 = _errs56 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data24.kinds !== undefined){
let data26 = data24.kinds;
const _errs58 = errors;
if(errors === _errs58){
if(Array.isArray(data26)){
var valid11 = true;
const len3 = data26.length;
for(let i3=0; i3<len3; i3++){
let data27 = data26[i3];
const _errs60 = errors;
if(typeof data27 !== "string"){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/kinds/" + i3,schemaPath:"#/properties/suspendedBy/oneOf/0/properties/kinds/items/type",keyword:"type",params:{type: "string"}}];
return false;
}
if(!(((data27 === "approval") || (data27 === "input")) || (data27 === "agent"))){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/kinds/" + i3,schemaPath:"#/properties/suspendedBy/oneOf/0/properties/kinds/items/enum",keyword:"enum",params:{allowedValues: schema31.properties.suspendedBy.oneOf[0].properties.kinds.items.enum}}];
return false;
}
var valid11 = _errs60 === errors;
if(!valid11){
break;
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy/kinds",schemaPath:"#/properties/suspendedBy/oneOf/0/properties/kinds/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid10 = _errs58 === errors;
}
else {
var valid10 = true;
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/0/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var props3 = true;
}
else if(tag0 === "predicate"){
const _errs62 = errors;
if(errors === _errs62){
if(data24 && typeof data24 == "object" && !Array.isArray(data24)){
let missing5;
if(((data24.type === undefined) && (missing5 = "type")) || ((data24.predicates === undefined) && (missing5 = "predicates"))){
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/1/required",keyword:"required",params:{missingProperty: missing5}}];
return false;
}
else {
const _errs64 = errors;
for(const key4 in data24){
if(!((key4 === "type") || (key4 === "predicates"))){
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4}}];
return false;
break;
}
}
if(_errs64 === errors){
if(data24.type !== undefined){
let data28 = data24.type;
const _errs65 = errors;
if(typeof data28 !== "string"){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/type",schemaPath:"#/properties/suspendedBy/oneOf/1/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("predicate" !== data28){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/type",schemaPath:"#/properties/suspendedBy/oneOf/1/properties/type/const",keyword:"const",params:{allowedValue: "predicate"}}];
return false;
}
var valid13 = _errs65 === errors;
}
else {
var valid13 = true;
}
if(valid13){
if(data24.predicates !== undefined){
let data29 = data24.predicates;
const _errs67 = errors;
if(errors === _errs67){
if(Array.isArray(data29)){
var valid14 = true;
const len4 = data29.length;
for(let i4=0; i4<len4; i4++){
const _errs69 = errors;
if(typeof data29[i4] !== "string"){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/predicates/" + i4,schemaPath:"#/properties/suspendedBy/oneOf/1/properties/predicates/items/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid14 = _errs69 === errors;
if(!valid14){
break;
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy/predicates",schemaPath:"#/properties/suspendedBy/oneOf/1/properties/predicates/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid13 = _errs67 === errors;
}
else {
var valid13 = true;
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/1/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props3 !== true){
props3 = true;
}
}
else if(tag0 === "checkpoint"){
const _errs71 = errors;
if(errors === _errs71){
if(data24 && typeof data24 == "object" && !Array.isArray(data24)){
let missing6;
if((data24.type === undefined) && (missing6 = "type")){
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/2/required",keyword:"required",params:{missingProperty: missing6}}];
return false;
}
else {
const _errs73 = errors;
for(const key5 in data24){
if(!(key5 === "type")){
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/2/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5}}];
return false;
break;
}
}
if(_errs73 === errors){
if(data24.type !== undefined){
let data31 = data24.type;
if(typeof data31 !== "string"){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/type",schemaPath:"#/properties/suspendedBy/oneOf/2/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("checkpoint" !== data31){
validate20.errors = [{instancePath:instancePath+"/suspendedBy/type",schemaPath:"#/properties/suspendedBy/oneOf/2/properties/type/const",keyword:"const",params:{allowedValue: "checkpoint"}}];
return false;
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/oneOf/2/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props3 !== true){
props3 = true;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "type", tagValue: tag0}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/discriminator",keyword:"discriminator",params:{error: "tag", tag: "type", tagValue: tag0}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/suspendedBy",schemaPath:"#/properties/suspendedBy/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid0 = _errs50 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.state !== undefined){
const _errs76 = errors;
if(!(validate22(data.state, {instancePath:instancePath+"/state",parentData:data,parentDataProperty:"state",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid0 = _errs76 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.metadata !== undefined){
let data33 = data.metadata;
const _errs77 = errors;
if(errors === _errs77){
if(data33 && typeof data33 == "object" && !Array.isArray(data33)){
for(const key6 in data33){
const _errs79 = errors;
if(typeof key6 !== "string"){
const err0 = {instancePath:instancePath+"/metadata",schemaPath:"#/properties/metadata/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key6};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var valid17 = _errs79 === errors;
if(!valid17){
const err1 = {instancePath:instancePath+"/metadata",schemaPath:"#/properties/metadata/propertyNames",keyword:"propertyNames",params:{propertyName: key6}};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
validate20.errors = vErrors;
return false;
break;
}
}
if(valid17){
for(const key7 in data33){
const _errs82 = errors;
if(!(validate22(data33[key7], {instancePath:instancePath+"/metadata/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data33,parentDataProperty:key7,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid18 = _errs82 === errors;
if(!valid18){
break;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/metadata",schemaPath:"#/properties/metadata/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid0 = _errs77 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.decisions !== undefined){
let data35 = data.decisions;
const _errs83 = errors;
if(errors === _errs83){
if(Array.isArray(data35)){
var valid19 = true;
const len5 = data35.length;
for(let i5=0; i5<len5; i5++){
const _errs85 = errors;
if(!(validate50(data35[i5], {instancePath:instancePath+"/decisions/" + i5,parentData:data35,parentDataProperty:i5,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate50.errors : vErrors.concat(validate50.errors);
errors = vErrors.length;
}
var valid19 = _errs85 === errors;
if(!valid19){
break;
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/decisions",schemaPath:"#/properties/decisions/type",keyword:"type",params:{type: "array"}}];
return false;
}
}
var valid0 = _errs83 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.createdAt !== undefined){
let data37 = data.createdAt;
const _errs86 = errors;
if(errors === _errs86){
if(errors === _errs86){
if(typeof data37 === "string"){
if(!pattern4.test(data37)){
validate20.errors = [{instancePath:instancePath+"/createdAt",schemaPath:"#/properties/createdAt/pattern",keyword:"pattern",params:{pattern: "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/createdAt",schemaPath:"#/properties/createdAt/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
}
var valid0 = _errs86 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.seal !== undefined){
let data38 = data.seal;
const _errs88 = errors;
if(errors === _errs88){
if(data38 && typeof data38 == "object" && !Array.isArray(data38)){
let missing7;
if(((data38.alg === undefined) && (missing7 = "alg")) || ((data38.mac === undefined) && (missing7 = "mac"))){
validate20.errors = [{instancePath:instancePath+"/seal",schemaPath:"#/properties/seal/required",keyword:"required",params:{missingProperty: missing7}}];
return false;
}
else {
const _errs90 = errors;
for(const key8 in data38){
if(!(((key8 === "alg") || (key8 === "keyId")) || (key8 === "mac"))){
validate20.errors = [{instancePath:instancePath+"/seal",schemaPath:"#/properties/seal/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key8}}];
return false;
break;
}
}
if(_errs90 === errors){
if(data38.alg !== undefined){
let data39 = data38.alg;
const _errs91 = errors;
if(typeof data39 !== "string"){
validate20.errors = [{instancePath:instancePath+"/seal/alg",schemaPath:"#/properties/seal/properties/alg/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("HMAC-SHA256" !== data39){
validate20.errors = [{instancePath:instancePath+"/seal/alg",schemaPath:"#/properties/seal/properties/alg/const",keyword:"const",params:{allowedValue: "HMAC-SHA256"}}];
return false;
}
var valid20 = _errs91 === errors;
}
else {
var valid20 = true;
}
if(valid20){
if(data38.keyId !== undefined){
const _errs93 = errors;
if(typeof data38.keyId !== "string"){
validate20.errors = [{instancePath:instancePath+"/seal/keyId",schemaPath:"#/properties/seal/properties/keyId/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid20 = _errs93 === errors;
}
else {
var valid20 = true;
}
if(valid20){
if(data38.mac !== undefined){
let data41 = data38.mac;
const _errs95 = errors;
if(errors === _errs95){
if(typeof data41 === "string"){
if(data41.length < 1){
validate20.errors = [{instancePath:instancePath+"/seal/mac",schemaPath:"#/properties/seal/properties/mac/minLength",keyword:"minLength",params:{limit: 1}}];
return false;
}
}
else {
validate20.errors = [{instancePath:instancePath+"/seal/mac",schemaPath:"#/properties/seal/properties/mac/type",keyword:"type",params:{type: "string"}}];
return false;
}
}
var valid20 = _errs95 === errors;
}
else {
var valid20 = true;
}
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/seal",schemaPath:"#/properties/seal/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var valid0 = _errs88 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate20.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validateDecision = validate55;
const schema37 = {"$schema":"https://json-schema.org/draft/2020-12/schema","oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"approve"},"args":{"$ref":"#/$defs/__schema0"},"by":{"type":"string"},"reason":{"type":"string"}},"required":["type"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"reject"},"reason":{"type":"string"},"by":{"type":"string"}},"required":["type"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"input"},"value":{"$ref":"#/$defs/__schema0"},"by":{"type":"string"}},"required":["type","value"],"additionalProperties":false}],"$defs":{"__schema0":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"},{"type":"array","items":{"$ref":"#/$defs/__schema0"}},{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/__schema0"}}]}},"type":"object","discriminator":{"propertyName":"type"}};
const schema38 = {"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"},{"type":"array","items":{"$ref":"#/$defs/__schema0"}},{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"$ref":"#/$defs/__schema0"}}]};
const wrapper2 = {validate: validate56};

function validate56(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate56.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs0 = errors;
let valid0 = false;
const _errs1 = errors;
if(typeof data !== "string"){
const err0 = {instancePath,schemaPath:"#/anyOf/0/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var _valid0 = _errs1 === errors;
valid0 = valid0 || _valid0;
const _errs3 = errors;
if(!(typeof data == "number")){
const err1 = {instancePath,schemaPath:"#/anyOf/1/type",keyword:"type",params:{type: "number"}};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
var _valid0 = _errs3 === errors;
valid0 = valid0 || _valid0;
const _errs5 = errors;
if(typeof data !== "boolean"){
const err2 = {instancePath,schemaPath:"#/anyOf/2/type",keyword:"type",params:{type: "boolean"}};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs5 === errors;
valid0 = valid0 || _valid0;
const _errs7 = errors;
if(data !== null){
const err3 = {instancePath,schemaPath:"#/anyOf/3/type",keyword:"type",params:{type: "null"}};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
var _valid0 = _errs7 === errors;
valid0 = valid0 || _valid0;
const _errs9 = errors;
if(errors === _errs9){
if(Array.isArray(data)){
var valid1 = true;
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
const _errs11 = errors;
if(!(wrapper2.validate(data[i0], {instancePath:instancePath+"/" + i0,parentData:data,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? wrapper2.validate.errors : vErrors.concat(wrapper2.validate.errors);
errors = vErrors.length;
}
var valid1 = _errs11 === errors;
if(!valid1){
break;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/anyOf/4/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
var _valid0 = _errs9 === errors;
valid0 = valid0 || _valid0;
if(_valid0){
var items1 = true;
}
const _errs12 = errors;
if(errors === _errs12){
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
const _errs14 = errors;
if(typeof key0 !== "string"){
const err5 = {instancePath,schemaPath:"#/anyOf/5/propertyNames/type",keyword:"type",params:{type: "string"},propertyName:key0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var valid2 = _errs14 === errors;
if(!valid2){
const err6 = {instancePath,schemaPath:"#/anyOf/5/propertyNames",keyword:"propertyNames",params:{propertyName: key0}};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
break;
}
}
if(valid2){
for(const key1 in data){
const _errs17 = errors;
if(!(wrapper2.validate(data[key1], {instancePath:instancePath+"/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data,parentDataProperty:key1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? wrapper2.validate.errors : vErrors.concat(wrapper2.validate.errors);
errors = vErrors.length;
}
var valid3 = _errs17 === errors;
if(!valid3){
break;
}
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/anyOf/5/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
var _valid0 = _errs12 === errors;
valid0 = valid0 || _valid0;
if(_valid0){
var props2 = true;
}
if(!valid0){
const err8 = {instancePath,schemaPath:"#/anyOf",keyword:"anyOf",params:{}};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
validate56.errors = vErrors;
return false;
}
else {
errors = _errs0;
if(vErrors !== null){
if(_errs0){
vErrors.length = _errs0;
}
else {
vErrors = null;
}
}
}
validate56.errors = vErrors;
evaluated0.props = props2;
evaluated0.items = items1;
return errors === 0;
}
validate56.evaluated = {"dynamicProps":true,"dynamicItems":true};


function validate55(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate55.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
const tag0 = data.type;
if(typeof tag0 == "string"){
if(tag0 === "approve"){
const _errs2 = errors;
if(errors === _errs2){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.type === undefined) && (missing0 = "type")){
validate55.errors = [{instancePath,schemaPath:"#/oneOf/0/required",keyword:"required",params:{missingProperty: missing0}}];
return false;
}
else {
const _errs4 = errors;
for(const key0 in data){
if(!((((key0 === "type") || (key0 === "args")) || (key0 === "by")) || (key0 === "reason"))){
validate55.errors = [{instancePath,schemaPath:"#/oneOf/0/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0}}];
return false;
break;
}
}
if(_errs4 === errors){
if(data.type !== undefined){
let data0 = data.type;
const _errs5 = errors;
if(typeof data0 !== "string"){
validate55.errors = [{instancePath:instancePath+"/type",schemaPath:"#/oneOf/0/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("approve" !== data0){
validate55.errors = [{instancePath:instancePath+"/type",schemaPath:"#/oneOf/0/properties/type/const",keyword:"const",params:{allowedValue: "approve"}}];
return false;
}
var valid2 = _errs5 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.args !== undefined){
const _errs7 = errors;
if(!(validate56(data.args, {instancePath:instancePath+"/args",parentData:data,parentDataProperty:"args",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate56.errors : vErrors.concat(validate56.errors);
errors = vErrors.length;
}
var valid2 = _errs7 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.by !== undefined){
const _errs8 = errors;
if(typeof data.by !== "string"){
validate55.errors = [{instancePath:instancePath+"/by",schemaPath:"#/oneOf/0/properties/by/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid2 = _errs8 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.reason !== undefined){
const _errs10 = errors;
if(typeof data.reason !== "string"){
validate55.errors = [{instancePath:instancePath+"/reason",schemaPath:"#/oneOf/0/properties/reason/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid2 = _errs10 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
else {
validate55.errors = [{instancePath,schemaPath:"#/oneOf/0/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
var props1 = true;
}
else if(tag0 === "reject"){
const _errs12 = errors;
if(errors === _errs12){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing1;
if((data.type === undefined) && (missing1 = "type")){
validate55.errors = [{instancePath,schemaPath:"#/oneOf/1/required",keyword:"required",params:{missingProperty: missing1}}];
return false;
}
else {
const _errs14 = errors;
for(const key1 in data){
if(!(((key1 === "type") || (key1 === "reason")) || (key1 === "by"))){
validate55.errors = [{instancePath,schemaPath:"#/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1}}];
return false;
break;
}
}
if(_errs14 === errors){
if(data.type !== undefined){
let data4 = data.type;
const _errs15 = errors;
if(typeof data4 !== "string"){
validate55.errors = [{instancePath:instancePath+"/type",schemaPath:"#/oneOf/1/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("reject" !== data4){
validate55.errors = [{instancePath:instancePath+"/type",schemaPath:"#/oneOf/1/properties/type/const",keyword:"const",params:{allowedValue: "reject"}}];
return false;
}
var valid4 = _errs15 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data.reason !== undefined){
const _errs17 = errors;
if(typeof data.reason !== "string"){
validate55.errors = [{instancePath:instancePath+"/reason",schemaPath:"#/oneOf/1/properties/reason/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid4 = _errs17 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data.by !== undefined){
const _errs19 = errors;
if(typeof data.by !== "string"){
validate55.errors = [{instancePath:instancePath+"/by",schemaPath:"#/oneOf/1/properties/by/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid4 = _errs19 === errors;
}
else {
var valid4 = true;
}
}
}
}
}
}
else {
validate55.errors = [{instancePath,schemaPath:"#/oneOf/1/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props1 !== true){
props1 = true;
}
}
else if(tag0 === "input"){
const _errs21 = errors;
if(errors === _errs21){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing2;
if(((data.type === undefined) && (missing2 = "type")) || ((data.value === undefined) && (missing2 = "value"))){
validate55.errors = [{instancePath,schemaPath:"#/oneOf/2/required",keyword:"required",params:{missingProperty: missing2}}];
return false;
}
else {
const _errs23 = errors;
for(const key2 in data){
if(!(((key2 === "type") || (key2 === "value")) || (key2 === "by"))){
validate55.errors = [{instancePath,schemaPath:"#/oneOf/2/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2}}];
return false;
break;
}
}
if(_errs23 === errors){
if(data.type !== undefined){
let data7 = data.type;
const _errs24 = errors;
if(typeof data7 !== "string"){
validate55.errors = [{instancePath:instancePath+"/type",schemaPath:"#/oneOf/2/properties/type/type",keyword:"type",params:{type: "string"}}];
return false;
}
if("input" !== data7){
validate55.errors = [{instancePath:instancePath+"/type",schemaPath:"#/oneOf/2/properties/type/const",keyword:"const",params:{allowedValue: "input"}}];
return false;
}
var valid6 = _errs24 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.value !== undefined){
const _errs26 = errors;
if(!(validate56(data.value, {instancePath:instancePath+"/value",parentData:data,parentDataProperty:"value",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate56.errors : vErrors.concat(validate56.errors);
errors = vErrors.length;
}
var valid6 = _errs26 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data.by !== undefined){
const _errs27 = errors;
if(typeof data.by !== "string"){
validate55.errors = [{instancePath:instancePath+"/by",schemaPath:"#/oneOf/2/properties/by/type",keyword:"type",params:{type: "string"}}];
return false;
}
var valid6 = _errs27 === errors;
}
else {
var valid6 = true;
}
}
}
}
}
}
else {
validate55.errors = [{instancePath,schemaPath:"#/oneOf/2/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
if(props1 !== true){
props1 = true;
}
}
else {
validate55.errors = [{instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "type", tagValue: tag0}}];
return false;
}
}
else {
validate55.errors = [{instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "type", tagValue: tag0}}];
return false;
}
}
else {
validate55.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}}];
return false;
}
}
validate55.errors = vErrors;
evaluated0.props = props1;
return errors === 0;
}
validate55.evaluated = {"dynamicProps":true,"dynamicItems":false};


export const CONTINUATION_HINTS = {"members":{"#/required":[{"format":"string","version":"number","id":"string","runId":"string","agent":"object","messages":"array","pending":"array","done":"array","step":"number","usage":"object","suspendedBy":"object","state":"string","metadata":"object","decisions":"array","createdAt":"string","seal":"object"},{"inputTokens":"number","outputTokens":"number","totalTokens":"number"},{"actionId":"string","type":"string","toolName":"string","toolCallId":"string","at":"string","by":"string","reason":"string","args":"string","editedArgs":"string","value":"string"}],"#/additionalProperties":[{"format":"string","version":"number","id":"string","runId":"string","agent":"object","messages":"array","pending":"array","done":"array","step":"number","usage":"object","suspendedBy":"object","state":"string","metadata":"object","decisions":"array","createdAt":"string","seal":"object"},{"inputTokens":"number","outputTokens":"number","totalTokens":"number"},{"actionId":"string","type":"string","toolName":"string","toolCallId":"string","at":"string","by":"string","reason":"string","args":"string","editedArgs":"string","value":"string"}],"#/properties/agent/required":[{"name":"string","framework":"string","fingerprint":"string"}],"#/properties/agent/additionalProperties":[{"name":"string","framework":"string","fingerprint":"string"}],"#/properties/done/items/required":[{"toolCallId":"string","toolName":"string","output":"string","isError":"boolean","rejected":"boolean"}],"#/properties/done/items/additionalProperties":[{"toolCallId":"string","toolName":"string","output":"string","isError":"boolean","rejected":"boolean"}],"#/properties/suspendedBy/oneOf/0/required":[{"type":"string","kinds":"array"}],"#/properties/suspendedBy/oneOf/0/additionalProperties":[{"type":"string","kinds":"array"}],"#/properties/suspendedBy/oneOf/1/required":[{"type":"string","predicates":"array"}],"#/properties/suspendedBy/oneOf/1/additionalProperties":[{"type":"string","predicates":"array"}],"#/properties/suspendedBy/oneOf/2/required":[{"type":"string"}],"#/properties/suspendedBy/oneOf/2/additionalProperties":[{"type":"string"}],"#/properties/seal/required":[{"alg":"string","keyId":"string","mac":"string"}],"#/properties/seal/additionalProperties":[{"alg":"string","keyId":"string","mac":"string"}],"#/oneOf/0/required":[{"role":"string","content":"string","providerMetadata":"object"},{"kind":"string","toolCallId":"string","toolName":"string","args":"string","approved":"boolean","journal":"array","deadline":"string","description":"string","allowedDecisions":"array","inDoubt":"boolean"}],"#/oneOf/0/additionalProperties":[{"role":"string","content":"string","providerMetadata":"object"},{"kind":"string","toolCallId":"string","toolName":"string","args":"string","approved":"boolean","journal":"array","deadline":"string","description":"string","allowedDecisions":"array","inDoubt":"boolean"}],"#/oneOf/1/required":[{"role":"string","content":"string","providerMetadata":"object"},{"kind":"string","request":"string","toolCallId":"string","toolName":"string","args":"string","approved":"boolean","journal":"array","deadline":"string","description":"string","allowedDecisions":"array"}],"#/oneOf/1/additionalProperties":[{"role":"string","content":"string","providerMetadata":"object"},{"kind":"string","request":"string","toolCallId":"string","toolName":"string","args":"string","approved":"boolean","journal":"array","deadline":"string","description":"string","allowedDecisions":"array"}],"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/required":[{"type":"string","text":"string","providerMetadata":"object"}],"#/oneOf/1/properties/content/anyOf/1/items/oneOf/0/additionalProperties":[{"type":"string","text":"string","providerMetadata":"object"}],"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/required":[{"type":"string","image":"string","mediaType":"string","providerMetadata":"object"}],"#/oneOf/1/properties/content/anyOf/1/items/oneOf/1/additionalProperties":[{"type":"string","image":"string","mediaType":"string","providerMetadata":"object"}],"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/required":[{"type":"string","data":"string","mediaType":"string","filename":"string","providerMetadata":"object"}],"#/oneOf/1/properties/content/anyOf/1/items/oneOf/2/additionalProperties":[{"type":"string","data":"string","mediaType":"string","filename":"string","providerMetadata":"object"}],"#/oneOf/2/required":[{"role":"string","content":"string","providerMetadata":"object"},{"kind":"string","child":"object","toolCallId":"string","toolName":"string","args":"string","approved":"boolean","journal":"array","deadline":"string"}],"#/oneOf/2/additionalProperties":[{"role":"string","content":"string","providerMetadata":"object"},{"kind":"string","child":"object","toolCallId":"string","toolName":"string","args":"string","approved":"boolean","journal":"array","deadline":"string"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/required":[{"type":"string","text":"string","providerMetadata":"object"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/0/additionalProperties":[{"type":"string","text":"string","providerMetadata":"object"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/required":[{"type":"string","data":"string","mediaType":"string","filename":"string","providerMetadata":"object"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/1/additionalProperties":[{"type":"string","data":"string","mediaType":"string","filename":"string","providerMetadata":"object"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/required":[{"type":"string","text":"string","providerMetadata":"object"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/2/additionalProperties":[{"type":"string","text":"string","providerMetadata":"object"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/required":[{"type":"string","toolCallId":"string","toolName":"string","args":"string","providerMetadata":"object"}],"#/oneOf/2/properties/content/anyOf/1/items/oneOf/3/additionalProperties":[{"type":"string","toolCallId":"string","toolName":"string","args":"string","providerMetadata":"object"}],"#/oneOf/3/required":[{"role":"string","content":"array","providerMetadata":"object"}],"#/oneOf/3/additionalProperties":[{"role":"string","content":"array","providerMetadata":"object"}],"#/oneOf/3/properties/content/items/required":[{"type":"string","toolCallId":"string","toolName":"string","output":"string","isError":"boolean","rejected":"boolean","providerMetadata":"object"}],"#/oneOf/3/properties/content/items/additionalProperties":[{"type":"string","toolCallId":"string","toolName":"string","output":"string","isError":"boolean","rejected":"boolean","providerMetadata":"object"}]},"options":{"#/properties/suspendedBy/discriminator type":["actions","predicate","checkpoint"],"#/discriminator role":["system","user","assistant","tool"],"#/oneOf/1/properties/content/anyOf/1/items/discriminator type":["text","image","file"],"#/oneOf/2/properties/content/anyOf/1/items/discriminator type":["text","file","reasoning","tool-call"],"#/discriminator kind":["approval","input","agent"]}};
export const DECISION_HINTS = {"members":{"#/oneOf/0/required":[{"type":"string","args":"string","by":"string","reason":"string"}],"#/oneOf/0/additionalProperties":[{"type":"string","args":"string","by":"string","reason":"string"}],"#/oneOf/1/required":[{"type":"string","reason":"string","by":"string"}],"#/oneOf/1/additionalProperties":[{"type":"string","reason":"string","by":"string"}],"#/oneOf/2/required":[{"type":"string","value":"string","by":"string"}],"#/oneOf/2/additionalProperties":[{"type":"string","value":"string","by":"string"}]},"options":{"#/discriminator type":["approve","reject","input"]}};
