#!/usr/bin/env node
// validate_sarif.js: checks SARIF logs against the SARIF 2.1.0 JSON schema, and what the schema
// cannot say about devport's logs.
//
//   node validate_sarif.js SOURCE_DIR LOG.sarif...
//
// The schema is sarif-2.1.0-rtm.5.json as shipped by the npm package @microsoft/jest-sarif (the
// 2.1.0 schema, JSON Schema draft-04); ajv + ajv-draft-04 + ajv-formats validate it. All three are
// pinned in package.json and installed by scripts/bootstrap.sh (npm ci), never committed.
// Beyond the schema: every result's ruleIndex names its ruleId, locations are relative URIs under
// %SRCROOT%, every file:// helpUri names a file that exists, and results are sorted by path,
// line, column and rule. Exit 0 if every log passes, 1 otherwise.
'use strict';
const fs = require('fs');
const path = require('path');
const url = require('url');

const [src, ...logs] = process.argv.slice(2);
if (!src || logs.length === 0) {
  console.error('usage: validate_sarif.js SOURCE_DIR LOG.sarif...');
  process.exit(2);
}
const modules = path.join(src, 'node_modules');
const need = (name) => {
  try {
    return require(path.join(modules, name));
  } catch (e) {
    console.error(`validate_sarif: cannot load ${name} from ${modules} (run scripts/bootstrap.sh): ${e.message}`);
    process.exit(1);
  }
};
const Ajv = need('ajv-draft-04');
const addFormats = need('ajv-formats');
const schema = JSON.parse(
  fs.readFileSync(path.join(modules, '@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
// unicodeRegExp: false: the schema's pattern for `language` is not valid with the u flag.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);

let failed = 0;
const fail = (log, what) => {
  failed++;
  console.error(`FAIL ${log}: ${what}`);
};
for (const log of logs) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(log, 'utf8'));
  } catch (e) {
    fail(log, `not JSON: ${e.message}`);
    continue;
  }
  if (!validate(doc)) {
    for (const e of validate.errors.slice(0, 10)) fail(log, `schema: ${e.instancePath} ${e.message}`);
    continue;
  }
  const run = doc.runs[0];
  const rules = run.tool.driver.rules;
  if (run.columnKind !== 'utf16CodeUnits') fail(log, `columnKind ${run.columnKind}`);
  if (!run.originalUriBaseIds['%SRCROOT%'].uri.endsWith('/')) fail(log, '%SRCROOT% without a trailing /');
  for (const r of rules) {
    if (!r.helpUri || !r.helpUri.startsWith('file:')) continue;
    const file = url.fileURLToPath(r.helpUri.replace(/#.*/, ''));
    if (!fs.existsSync(file)) fail(log, `rule ${r.id}: helpUri ${r.helpUri} names no file`);
  }
  let prev = null;
  for (const res of run.results) {
    if (rules[res.ruleIndex].id !== res.ruleId) fail(log, `ruleIndex ${res.ruleIndex} is not ${res.ruleId}`);
    const loc = res.locations[0].physicalLocation;
    const uri = loc.artifactLocation.uri;
    if (loc.artifactLocation.uriBaseId !== '%SRCROOT%' || uri.startsWith('/') || /^[a-z]+:/i.test(uri))
      fail(log, `location ${uri} is not relative to %SRCROOT%`);
    const key = [decodeURIComponent(uri), loc.region.startLine, loc.region.startColumn, res.ruleId];
    if (prev && prev[0] === key[0] &&
        (prev[1] > key[1] || (prev[1] === key[1] && (prev[2] > key[2] || (prev[2] === key[2] && prev[3] > key[3])))))
      fail(log, `results out of order at ${key.join(':')}`);
    prev = key;
  }
  console.log(`ok ${log}: ${run.results.length} results, ${rules.length} rules`);
}
process.exit(failed ? 1 : 0);
