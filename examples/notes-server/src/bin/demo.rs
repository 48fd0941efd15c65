//! `cargo run -p notes-server --bin demo`: the scripted demo (exit code 0
//! only if every scene behaved as expected).

#[tokio::main]
async fn main() {
    let ok = notes_server::demo::run().await;
    std::process::exit(if ok { 0 } else { 1 });
}
