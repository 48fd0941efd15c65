// The official TypeScript SDK's client (@modelcontextprotocol/sdk 1.32,
// pinned in run.sh) driving mcp-roots-fs over stdio: the tool list, a read,
// a write, a refusal (isError with structuredContent.reason), and the
// client's roots: an empty first answer served the directories, a
// notifications/roots/list_changed narrowing them, un-sharing sharing
// nothing. Then `--ask-within` with no directory: the user's answers to
// the grant questions through the SDK's elicitation handler (for the
// call, for the session, decline, cancel, "Don't allow"; a hidden file
// never asked about; a resource read asked about as a tool's path is).
//
//   node client.mjs /path/to/mcp-roots-fs
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const binary = process.argv[2];
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcp-roots-fs-ts-")));
const root = path.join(base, "root");
fs.mkdirSync(path.join(root, "sub"), { recursive: true });
fs.mkdirSync(path.join(base, "outside"));
fs.writeFileSync(path.join(root, "a.txt"), "alpha\nbeta\n");
fs.writeFileSync(path.join(root, "sub", "c.md"), "sea\n");
fs.writeFileSync(path.join(base, "outside", "secret.txt"), "the secret outside");

let failures = 0;
let passed = 0;
function check(ok, what, detail = "") {
  if (ok) passed += 1;
  else failures += 1;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${!ok && detail ? ": " + detail : ""}`);
}
const text = (r) => (r.content ?? []).filter((b) => b.type === "text").map((b) => b.text).join("\n");
const reason = (r) => r.structuredContent?.reason;

let shared = [];
let asked = 0;
const client = new Client(
  { name: "ts-sdk-client", version: "1.0.0" },
  { capabilities: { roots: { listChanged: true } } },
);
client.setRequestHandler(ListRootsRequestSchema, async () => {
  asked += 1;
  return { roots: shared.map((uri) => ({ uri })) };
});
const transport = new StdioClientTransport({
  command: binary,
  args: [root],
  env: { ...process.env, RUST_LOG: "warn" },
  stderr: "ignore",
});
const started = performance.now();
await client.connect(transport);
const call = (name, args) => client.callTool({ name, arguments: args });

async function share(uris) {
  const before = asked;
  shared = uris;
  await client.sendRootsListChanged();
  const deadline = Date.now() + 10_000;
  while (asked === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  // The answer is installed right after the server receives it.
  await new Promise((r) => setTimeout(r, 100));
  return asked > before;
}

try {
  const server = client.getServerVersion();
  check(server?.name === "mcp-roots-fs", "initialize: the server names itself", JSON.stringify(server));

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  const order = ["read_file", "read_text_file", "read_media_file", "read_multiple_files",
    "write_file", "append_file", "edit_file", "create_directory", "list_directory",
    "list_directory_with_sizes", "directory_tree", "move_file", "copy_file", "search_files",
    "get_file_info", "list_allowed_directories"];
  check(names.join(",") === order.join(","),
    "tools/list: the 16 tools, in 2.3.0's order", names.join(","));
  const readTool = tools.find((t) => t.name === "read_text_file");
  check(readTool?.annotations?.readOnlyHint === true && readTool?.outputSchema?.type === "object",
    "read_text_file: readOnlyHint and an output schema", JSON.stringify(readTool?.annotations));

  // The first roots answer is []: the directories are served.
  const read = await call("read_text_file", { path: path.join(root, "a.txt") });
  check(!read.isError && text(read) === "alpha\nbeta\n" && read.structuredContent?.content === "alpha\nbeta\n",
    "read_text_file after an empty first roots answer", JSON.stringify(read));
  const head = await call("read_text_file", { path: path.join(root, "a.txt"), head: 1 });
  check(text(head) === "alpha", "read_text_file with head", JSON.stringify(head));

  const wrote = await call("write_file", { path: path.join(root, "new.txt"), content: "new\n" });
  check(!wrote.isError && fs.readFileSync(path.join(root, "new.txt"), "utf8") === "new\n",
    "write_file writes the file", JSON.stringify(wrote));

  const listing = await call("list_directory", { path: root });
  check(text(listing).split("\n").sort().join("|") === "[DIR] sub|[FILE] a.txt|[FILE] new.txt",
    "list_directory", text(listing));

  const outside = await call("read_text_file", { path: path.join(base, "outside", "secret.txt") });
  check(outside.isError === true && reason(outside) === "outside_roots" && !text(outside).includes("the secret outside"),
    "a path outside: isError, structuredContent.reason outside_roots", JSON.stringify(outside));
  const media = await call("read_media_file", { path: path.join(base, "outside", "secret.txt") });
  check(media.isError === true && reason(media) === "outside_roots",
    "read_media_file outside: isError with a reason (its output schema still met)", JSON.stringify(media));
  const escape = await call("write_file", { path: path.join(root, "..", "outside", "x.txt"), content: "x" });
  check(escape.isError === true && !fs.existsSync(path.join(base, "outside", "x.txt")),
    "a write through .. is refused, nothing written", JSON.stringify(escape));

  // notifications/roots/list_changed: the client now shares root/sub only.
  check(await share([`file://${path.join(root, "sub")}`]), "the server asks for the roots again");
  const inside = await call("read_text_file", { path: path.join(root, "sub", "c.md") });
  check(text(inside) === "sea\n", "a shared root is served", JSON.stringify(inside));
  const narrowed = await call("read_text_file", { path: path.join(root, "a.txt") });
  check(narrowed.isError === true && reason(narrowed) === "outside_roots",
    "roots narrow within the directories", JSON.stringify(narrowed));
  const allowed = await call("list_allowed_directories", {});
  check(text(allowed) === `Allowed directories:\n${path.join(root, "sub")}`,
    "list_allowed_directories names the shared root", text(allowed));

  // A root outside the directories never widens them.
  check(await share([`file://${path.join(base, "outside")}`]), "the server asks for the roots again");
  const widened = await call("read_text_file", { path: path.join(base, "outside", "secret.txt") });
  check(widened.isError === true && !text(widened).includes("the secret outside"),
    "client roots never widen past the directories", JSON.stringify(widened));

  // Un-sharing after sharing shares nothing.
  check(await share([]), "the server asks for the roots again");
  const gone = await call("read_text_file", { path: path.join(root, "sub", "c.md") });
  check(gone.isError === true && reason(gone) === "no_roots", "un-sharing after sharing shares nothing", JSON.stringify(gone));
} catch (err) {
  check(false, "the session", String(err?.stack ?? err));
} finally {
  await client.close();
}

// Grants: `--ask-within area --hide *.pem`, nothing served until the user
// answers. `answers` are taken in order: a choice's const, or an action.
const area = path.join(base, "area");
fs.mkdirSync(path.join(area, "notes"), { recursive: true });
for (const [name, body] of [["a.md", "alpha"], ["b.md", "beta"], ["c.md", "gamma"], ["key.pem", "secret"], ["notes/n.md", "note"]]) {
  fs.writeFileSync(path.join(area, name), body);
}
const answers = [];
const questions = [];
const asker = new Client(
  { name: "ts-sdk-client", version: "1.0.0" },
  { capabilities: { elicitation: { form: {} } } },
);
asker.setRequestHandler(ElicitRequestSchema, async (request) => {
  const grant = request.params.requestedSchema?.properties?.grant;
  questions.push({ message: request.params.message, choices: (grant?.oneOf ?? []).map((o) => o.const) });
  const answer = answers.shift() ?? "decline";
  if (answer === "decline" || answer === "cancel") return { action: answer };
  return { action: "accept", content: { grant: answer } };
});
try {
  await asker.connect(new StdioClientTransport({
    command: binary,
    args: ["--ask-within", area, "--hide", "*.pem"],
    env: { ...process.env, RUST_LOG: "warn" },
    stderr: "ignore",
  }));
  const ask = (name, args) => asker.callTool({ name, arguments: args });
  answers.push("call");
  const once = await ask("read_text_file", { path: path.join(area, "a.md") });
  check(text(once) === "alpha" && questions.length === 1, "grant for the call: asked, read", JSON.stringify(once));
  check(questions[0]?.choices.join(",") === "call,session,no" && questions[0]?.message.includes(path.join(area, "a.md")),
    "the question names the path and offers call, session, no", JSON.stringify(questions[0]));
  answers.push("session");
  const kept = await ask("read_text_file", { path: path.join(area, "notes", "n.md") });
  const again = await ask("read_text_file", { path: path.join(area, "notes", "n.md") });
  check(text(kept) === "note" && text(again) === "note" && questions.length === 2,
    "grant for the session: asked once", `${questions.length} questions`);
  const listed = await ask("list_allowed_directories", {});
  check(text(listed).includes(path.join(area, "notes", "n.md")), "list_allowed_directories lists the grant", text(listed));
  answers.push("decline");
  const declined = await ask("read_text_file", { path: path.join(area, "b.md") });
  check(reason(declined) === "grant_declined", "decline: grant_declined", JSON.stringify(declined));
  const remembered = await ask("get_file_info", { path: path.join(area, "notes", "..", "b.md") });
  check(reason(remembered) === "grant_declined" && questions.length === 3,
    "the no is remembered across spellings", JSON.stringify(remembered));
  answers.push("cancel");
  const cancelled = await ask("read_text_file", { path: path.join(area, "c.md") });
  check(reason(cancelled) === "grant_cancelled", "cancel: grant_cancelled", JSON.stringify(cancelled));
  answers.push("no");
  const no = await ask("write_file", { path: path.join(area, "c.md"), content: "z" });
  check(reason(no) === "grant_declined" && fs.readFileSync(path.join(area, "c.md"), "utf8") === "gamma",
    "\"Don't allow\": grant_declined, nothing written", JSON.stringify(no));
  const before = questions.length;
  const hidden = await ask("read_text_file", { path: path.join(area, "key.pem") });
  check(reason(hidden) === "hidden" && questions.length === before, "a hidden file: refused, never asked", JSON.stringify(hidden));
  answers.push("call");
  const resource = await asker.readResource({ uri: `file://${path.join(area, "a.md")}` });
  check(resource.contents?.[0]?.text === "alpha" && questions.length === before + 1
    && questions.at(-1).message.includes("resources/read"),
    "resources/read is asked about as a tool's path", JSON.stringify(resource));
} catch (err) {
  check(false, "the grants session", String(err?.stack ?? err));
} finally {
  await asker.close();
  fs.rmSync(base, { recursive: true, force: true });
}
const ms = performance.now() - started;
console.log(`${failures ? "FAILED" : "passed"}: ${passed} checks passed, ${failures} failed; ${(ms / 1000).toFixed(2)}s`);
process.exit(failures ? 1 : 0);
