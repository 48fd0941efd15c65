//! Server-side validation of an accepted elicitation answer against the
//! schema that was sent (rmcp does not check it): fields, types, lengths,
//! bounds, choices, and the string formats (`email`, `uri`, `date`,
//! `date-time`, checked in `format.rs`). Works on the schema's JSON
//! form, so it follows exactly what went over the wire.

use serde_json::{Map, Value};

use crate::values::format;

/// Checks `content` against the flat form schema `schema` (as JSON): an
/// object with only the declared fields, every required field present, each
/// value of the declared type and within its constraints.
pub(crate) fn validate(schema: &Value, content: &Value) -> Result<Map<String, Value>, String> {
    let Some(content) = content.as_object() else {
        return Err("the answer is not an object".into());
    };
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for key in content.keys() {
        if !properties.contains_key(key) {
            return Err(format!("field {key:?} was not asked for"));
        }
    }
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if !content.contains_key(name) {
            return Err(format!("required field {name:?} is missing"));
        }
    }
    for (name, value) in content {
        field(&properties[name], value).map_err(|problem| format!("field {name:?}: {problem}"))?;
    }
    Ok(content.clone())
}

/// One primitive field.
fn field(schema: &Value, value: &Value) -> Result<(), String> {
    let kind = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    match kind {
        "boolean" if value.is_boolean() => Ok(()),
        "string" => {
            let text = value.as_str().ok_or("expected a string")?;
            let chars = text.chars().count() as u64;
            bound(schema, "minLength", chars, |min, n| n >= min)?;
            bound(schema, "maxLength", chars, |max, n| n <= max)?;
            if let Some(name) = schema.get("format").and_then(Value::as_str) {
                format::check(name, text)?;
            }
            allowed(schema, value)
        }
        "integer" if value.is_i64() || value.is_u64() => number(schema, value),
        "number" if value.is_number() => number(schema, value),
        "array" => {
            let items = value.as_array().ok_or("expected an array")?;
            bound(schema, "minItems", items.len() as u64, |min, n| n >= min)?;
            bound(schema, "maxItems", items.len() as u64, |max, n| n <= max)?;
            let item_schema = schema.get("items").unwrap_or(&Value::Null);
            items.iter().try_for_each(|item| allowed(item_schema, item))
        }
        other => Err(format!("expected a {other}")),
    }
}

fn number(schema: &Value, value: &Value) -> Result<(), String> {
    let n = value.as_f64().ok_or("expected a number")?;
    if let Some(min) = schema
        .get("minimum")
        .and_then(Value::as_f64)
        .filter(|min| n < *min)
    {
        return Err(format!("below the minimum {min}"));
    }
    if let Some(max) = schema
        .get("maximum")
        .and_then(Value::as_f64)
        .filter(|max| n > *max)
    {
        return Err(format!("above the maximum {max}"));
    }
    allowed(schema, value)
}

fn bound(schema: &Value, key: &str, n: u64, ok: impl Fn(u64, u64) -> bool) -> Result<(), String> {
    match schema.get(key).and_then(Value::as_u64) {
        Some(limit) if !ok(limit, n) => Err(format!("violates {key} {limit}")),
        _ => Ok(()),
    }
}

/// Enum constraints: `enum`, or `oneOf`/`anyOf` of `{"const": …}`.
fn allowed(schema: &Value, value: &Value) -> Result<(), String> {
    let consts = |key: &str| {
        schema.get(key).and_then(Value::as_array).map(|options| {
            options
                .iter()
                .filter_map(|o| o.get("const"))
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let choices = schema
        .get("enum")
        .and_then(Value::as_array)
        .cloned()
        .or_else(|| consts("oneOf"))
        .or_else(|| consts("anyOf"));
    match choices {
        Some(choices) if !choices.contains(value) => Err("not one of the offered choices".into()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::validate;
    use serde_json::json;

    #[test]
    fn answers_are_checked_against_the_schema_sent() {
        let schema = json!({
            "type": "object",
            "properties": {
                "choice": {"type": "string", "oneOf": [{"const": "c0"}, {"const": "c1"}]},
                "confirm": {"type": "boolean"},
                "count": {"type": "integer", "minimum": 1, "maximum": 3},
                "note": {"type": "string", "maxLength": 5},
                "mail": {"type": "string", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "day": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "date-time"}
            },
            "required": ["choice", "confirm"]
        });
        assert!(validate(&schema, &json!({"choice": "c1", "confirm": true})).is_ok());
        assert!(
            validate(
                &schema,
                &json!({"choice": "c1", "confirm": true, "count": 2, "note": "hi"})
            )
            .is_ok()
        );
        let formatted = json!({
            "choice": "c1", "confirm": true, "mail": "alice@example.com",
            "site": "https://example.com/", "day": "2026-12-01", "at": "2026-12-01T15:00:00Z"
        });
        assert!(validate(&schema, &formatted).is_ok());
        for bad in [
            json!("c1"),
            json!({"choice": "c9", "confirm": true}),
            json!({"choice": "c1"}),
            json!({"choice": "c1", "confirm": "yes"}),
            json!({"choice": "c1", "confirm": true, "count": 4}),
            json!({"choice": "c1", "confirm": true, "count": 1.5}),
            json!({"choice": "c1", "confirm": true, "note": "too long"}),
            json!({"choice": "c1", "confirm": true, "extra": 1}),
            json!({"choice": {"nested": "c1"}, "confirm": true}),
            json!({"choice": "c1", "confirm": true, "mail": "not an address"}),
            json!({"choice": "c1", "confirm": true, "site": "no scheme"}),
            json!({"choice": "c1", "confirm": true, "day": "2026-02-30"}),
            json!({"choice": "c1", "confirm": true, "at": "2026-12-01 15:00"}),
        ] {
            assert!(validate(&schema, &bad).is_err(), "{bad}");
        }
    }
}
