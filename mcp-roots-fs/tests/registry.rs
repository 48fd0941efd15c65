//! The MCP Registry's `server.json`: one version for the crate, the npm
//! package and the wheel (the crate's, which the packages read), the
//! registry's rules on its fields, and the ownership markers the registry
//! checks in each package (npm's `mcpName`, PyPI's `mcp-name:` line).

use std::path::Path;

use serde_json::Value;

fn repo_file(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn server_json_names_the_crate_s_version_everywhere() {
    let server: Value = serde_json::from_str(&repo_file("mcp-roots-fs/server.json")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(server["version"], version);
    let packages = server["packages"].as_array().unwrap();
    let kinds: Vec<&str> = packages
        .iter()
        .map(|p| p["registryType"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["npm", "pypi"]);
    for package in packages {
        assert_eq!(package["version"], version, "{package}");
        assert_eq!(package["identifier"], "mcp-roots-fs", "{package}");
        assert_eq!(package["transport"]["type"], "stdio", "{package}");
    }
    // The registry's rules: one `/` in a reverse-DNS name, a description of
    // at most 100 characters, the dated schema.
    let name = server["name"].as_str().unwrap();
    assert_eq!(name.matches('/').count(), 1, "{name}");
    assert!(name.starts_with("io.github."), "{name}");
    assert!(server["description"].as_str().unwrap().chars().count() <= 100);
    assert!(
        server["$schema"]
            .as_str()
            .unwrap()
            .starts_with("https://static.modelcontextprotocol.io/schemas/")
    );
    // Ownership: npm's launcher gets `mcpName` from this file; PyPI's
    // README carries the `mcp-name:` line.
    assert!(repo_file("packaging/npm/build.js").contains("mcpName: registryName()"));
    assert!(
        repo_file("packaging/python/README.md").contains(&format!("mcp-name: {name}")),
        "packaging/python/README.md lacks the mcp-name line"
    );
}
