//! `tools/list` against 2.3.0's, captured from the real server
//! (`fixtures/server-filesystem-2.3.0.json`): on 2025-11-25, on 2026-07-28
//! and with `--read-only`, tool by tool in order and field by field (name,
//! title, description, input and output schemas, annotations), with the
//! differences kept on purpose listed in [`DIFFERENCES`] and applied to
//! the fixture's value before comparing; and every schema checked to be
//! JSON Schema 2020-12 with no `$ref`, no `$defs` and no type arrays, each
//! `default` valid under its own schema.

#![cfg(unix)]

mod common;

use mcp_script::{Connection, ScriptedClient, modern_lifecycle};
use rmcp::model::{CacheScope, ListToolsResult, ProtocolVersion};
use serde_json::{Map, Value, json};

use common::{NoServer, binary, call, failed, start};

const FIXTURE: &str = include_str!("fixtures/server-filesystem-2.3.0.json");

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The differences from 2.3.0's `tools/list` kept on purpose: the tool
/// (`*`: every tool), the field, and why. [`ours`] applies each to the
/// fixture's value; the README's differences table says the same.
const DIFFERENCES: [(&str, &str, &str); 1] = [(
    "*",
    "outputSchema",
    "no top-level additionalProperties: false: a refusal's structuredContent carries its \
     reason beside content, and a walk's why it stopped early",
)];

/// What ours should be for `tool`'s `field`, given 2.3.0's value: theirs
/// with the listed differences applied.
fn ours(_tool: &str, field: &str, theirs: &Value) -> Value {
    let mut want = theirs.clone();
    if field == "outputSchema" {
        want.as_object_mut()
            .expect("an object")
            .remove("additionalProperties");
    }
    want
}

fn fixture(era: &str) -> Vec<Value> {
    let all: Value = serde_json::from_str(FIXTURE).expect("the fixture is JSON");
    all[era]["tools/list"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{era}: no tools/list"))
        .clone()
}

/// Every listed difference changes the fixture's value (none is stale),
/// and nothing else is changed.
#[test]
fn the_listed_differences_are_real_and_alone() {
    let theirs = fixture("2025-11-25");
    let fields = [
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ];
    let mut applied = Vec::new();
    for tool in &theirs {
        let name = tool["name"].as_str().expect("a name");
        for field in fields {
            if ours(name, field, &tool[field]) != tool[field] {
                applied.push((name, field));
            }
        }
    }
    for (tool, field, why) in DIFFERENCES {
        let hits = applied
            .iter()
            .filter(|(n, f)| (tool == "*" || *n == tool) && *f == field)
            .count();
        let want = if tool == "*" { theirs.len() } else { 1 };
        assert_eq!(hits, want, "{tool}.{field} ({why})");
    }
    let listed = |n: &str, f: &str| {
        DIFFERENCES
            .iter()
            .any(|(t, lf, _)| (*t == "*" || *t == n) && *lf == f)
    };
    assert!(applied.iter().all(|(n, f)| listed(n, f)), "{applied:?}");
}

async fn list(conn: &Connection<NoServer>) -> ListToolsResult {
    conn.client
        .list_tools(None)
        .await
        .expect("a tools/list result")
}

/// Ours against the fixture's `era`, in order, field by field.
fn compare(era: &str, result: &ListToolsResult) {
    let theirs = fixture(era);
    let ours_listed: Vec<Value> = result
        .tools
        .iter()
        .map(|tool| serde_json::to_value(tool).expect("a tool serialises"))
        .collect();
    let names = |tools: &[Value]| -> Vec<String> {
        tools
            .iter()
            .map(|t| t["name"].as_str().expect("a name").to_owned())
            .collect()
    };
    assert_eq!(
        names(&ours_listed),
        names(&theirs),
        "{era}: the tools in order"
    );
    for (mine, tool) in ours_listed.iter().zip(&theirs) {
        let name = tool["name"].as_str().expect("a name");
        for field in [
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
        ] {
            assert_eq!(
                mine.get(field).unwrap_or(&Value::Null),
                &ours(name, field, &tool[field]),
                "{era}: {name}.{field}"
            );
        }
        let extra: Vec<&String> = mine
            .as_object()
            .expect("an object")
            .keys()
            .filter(|k| tool.get(k.as_str()).is_none())
            .collect();
        assert!(extra.is_empty(), "{era}: {name} has {extra:?}");
        for schema in ["inputSchema", "outputSchema"] {
            check_schema(&mine[schema], &format!("{era}: {name}.{schema}"));
        }
    }
}

#[tokio::test]
async fn tools_list_is_2_3_0s_on_2025_11_25_and_with_read_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let at = dir.path().to_str().expect("utf-8").to_owned();
    let script = ScriptedClient::new(false, false);
    let conn = start(std::slice::from_ref(&at), &script).await;
    let result = list(&conn).await;
    compare("2025-11-25", &result);
    assert_eq!((result.ttl_ms, result.cache_scope), (None, None));
    assert!(result.meta.is_none(), "{:?}", result.meta);
    assert!(conn.close().await);

    let script = ScriptedClient::new(false, false);
    let conn = start(&["--read-only".to_owned(), at.clone()], &script).await;
    compare("2025-11-25 --read-only", &list(&conn).await);
    // A withheld tool called anyway is served, and refused by the policy.
    std::fs::write(dir.path().join("kept.txt"), "kept").expect("seed");
    for (tool, args) in [
        (
            "write_file",
            json!({ "path": format!("{at}/new.txt"), "content": "x" }),
        ),
        (
            "append_file",
            json!({ "path": format!("{at}/kept.txt"), "content": "x" }),
        ),
        (
            "copy_file",
            json!({ "source": format!("{at}/kept.txt"), "destination": format!("{at}/copy.txt") }),
        ),
        ("create_directory", json!({ "path": format!("{at}/d") })),
    ] {
        let result = call(&conn.client, tool, args).await;
        let reason = result
            .structured_content
            .as_ref()
            .and_then(|s| s.get("reason"))
            .cloned();
        assert!(failed(&result), "{tool}: {result:?}");
        assert_eq!(reason, Some(json!("read_only")), "{tool}: {result:?}");
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["kept.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("kept.txt")).expect("read"),
        "kept"
    );
    assert!(conn.close().await);
}

#[tokio::test]
async fn tools_list_is_2_3_0s_on_2026_07_28() {
    let dir = tempfile::tempdir().expect("tempdir");
    let at = dir.path().to_str().expect("utf-8").to_owned();
    let script = ScriptedClient::new(true, false).speaking(ProtocolVersion::V_2026_07_28);
    let conn = Connection::spawn(binary(), &[at], script, modern_lifecycle())
        .await
        .expect("the server starts");
    let result = list(&conn).await;
    compare("2026-07-28", &result);
    // 2.3.0's hints there: fresh each time, private, and who answers
    // (ours, where the fixture names 2.3.0).
    assert_eq!(
        (result.ttl_ms, result.cache_scope),
        (Some(0), Some(CacheScope::Private))
    );
    let all: Value = serde_json::from_str(FIXTURE).expect("the fixture is JSON");
    let theirs = &all["2026-07-28"]["tools/list"];
    assert_eq!(theirs["ttlMs"], json!(0));
    assert_eq!(theirs["cacheScope"], json!("private"));
    let key = "io.modelcontextprotocol/serverInfo";
    assert_eq!(
        theirs["_meta"][key]["name"],
        json!("secure-filesystem-server")
    );
    let meta = serde_json::to_value(&result.meta).expect("meta serialises");
    assert_eq!(meta[key]["name"], json!("mcp-roots-fs"), "{meta}");
    assert_eq!(
        meta[key]["version"],
        json!(env!("CARGO_PKG_VERSION")),
        "{meta}"
    );
    assert!(conn.close().await);
}

/// The 2020-12 keywords a schema here may use, each checked below.
const KEYWORDS: [&str; 16] = [
    "$schema",
    "type",
    "properties",
    "required",
    "items",
    "anyOf",
    "enum",
    "const",
    "default",
    "description",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "minItems",
    "additionalProperties",
    "title",
];

const TYPES: [&str; 7] = [
    "object", "array", "string", "number", "integer", "boolean", "null",
];

/// `schema` is a JSON Schema 2020-12 document of the keywords above, with
/// no `$ref`, no `$defs` and no type arrays; its root names the dialect.
fn check_schema(schema: &Value, at: &str) {
    assert_eq!(schema.get("$schema"), Some(&json!(DIALECT)), "{at}");
    assert_eq!(schema.get("type"), Some(&json!("object")), "{at}");
    check_node(schema, at, true);
}

fn check_node(node: &Value, at: &str, root: bool) {
    let object = node
        .as_object()
        .unwrap_or_else(|| panic!("{at}: a schema is an object"));
    for (key, value) in object {
        let here = format!("{at}/{key}");
        assert!(
            KEYWORDS.contains(&key.as_str()),
            "{here}: not a keyword used here"
        );
        match key.as_str() {
            "$schema" => assert!(root && value == DIALECT, "{here}"),
            "type" => {
                let name = value.as_str().unwrap_or_else(|| panic!("{here}: one type"));
                assert!(TYPES.contains(&name), "{here}: {name}");
            }
            "properties" => {
                for (name, sub) in value.as_object().expect("properties") {
                    check_node(sub, &format!("{here}/{name}"), false);
                }
            }
            "required" => {
                let props = object.get("properties").and_then(Value::as_object);
                for name in value.as_array().expect("required is an array") {
                    let name = name.as_str().expect("a name");
                    assert!(
                        props.is_some_and(|p| p.contains_key(name)),
                        "{here}: {name} is not a property"
                    );
                }
            }
            "items" => check_node(value, &here, false),
            "anyOf" => {
                let branches = value.as_array().expect("anyOf is an array");
                assert!(!branches.is_empty(), "{here}");
                for (i, sub) in branches.iter().enumerate() {
                    check_node(sub, &format!("{here}/{i}"), false);
                }
            }
            "enum" => assert!(value.as_array().is_some_and(|a| !a.is_empty()), "{here}"),
            "description" | "title" => assert!(value.is_string(), "{here}"),
            "minimum" | "maximum" | "exclusiveMinimum" => assert!(value.is_number(), "{here}"),
            "minItems" => assert!(value.is_u64(), "{here}"),
            "additionalProperties" if !value.is_boolean() => check_node(value, &here, false),
            _ => {}
        }
    }
    if let Some(default) = object.get("default") {
        assert!(
            valid(default, object),
            "{at}: default {default} is not valid"
        );
    }
}

/// Whether `value` is valid under `schema` (the keywords above).
fn valid(value: &Value, schema: &Map<String, Value>) -> bool {
    let typed = match schema.get("type").and_then(Value::as_str) {
        None => true,
        Some("object") => value.is_object(),
        Some("array") => value.as_array().is_some_and(|items| {
            schema
                .get("items")
                .and_then(Value::as_object)
                .is_none_or(|sub| items.iter().all(|item| valid(item, sub)))
        }),
        Some("string") => value.is_string(),
        Some("number") => value.is_number(),
        Some("integer") => value.is_i64() || value.is_u64(),
        Some("boolean") => value.is_boolean(),
        Some("null") => value.is_null(),
        Some(_) => false,
    };
    let listed = schema
        .get("enum")
        .and_then(Value::as_array)
        .is_none_or(|options| options.contains(value));
    typed && listed
}

/// The checker itself refuses what strict clients refuse.
#[test]
fn the_checker_refuses_refs_type_arrays_and_bad_defaults() {
    let base = json!({ "$schema": DIALECT, "type": "object", "properties": {} });
    check_schema(&base, "base");
    for (bad, why) in [
        (json!({ "x": { "$ref": "#/$defs/X" } }), "a $ref"),
        (
            json!({ "x": { "type": ["number", "null"] } }),
            "a type array",
        ),
        (
            json!({ "x": { "type": "string", "enum": ["a"], "default": "b" } }),
            "a default outside the enum",
        ),
        (
            json!({ "x": { "type": "boolean", "default": 0 } }),
            "a default of another type",
        ),
        (json!({ "x": { "type": "float" } }), "an unknown type"),
    ] {
        let mut schema = base.clone();
        schema["properties"] = bad;
        let refused = std::panic::catch_unwind(|| check_schema(&schema, why)).is_err();
        assert!(refused, "{why} passed");
    }
    let mut defs = base.clone();
    defs["$defs"] = json!({ "X": { "type": "string" } });
    assert!(std::panic::catch_unwind(|| check_schema(&defs, "$defs")).is_err());
    let mut unknown = base;
    unknown["required"] = json!(["missing"]);
    assert!(std::panic::catch_unwind(|| check_schema(&unknown, "required")).is_err());
}
