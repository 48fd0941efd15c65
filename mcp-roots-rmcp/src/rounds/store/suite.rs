//! One suite for every store: each case is a function over a [`Store`], run
//! against the memory store and (feature `redis`) against a `redis-server`
//! the test starts on a free loopback port in a temporary directory.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::json;

use super::{Consumed, FlowEnd, FlowStatus, Store};

fn now() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    u64::try_from(since.as_millis()).unwrap()
}

/// How long a record is kept in the cases that do not let it expire.
const KEEP: u64 = 60_000;

fn nonce(n: u8) -> [u8; 16] {
    let mut nonce = [0u8; 16];
    getrandom::fill(&mut nonce).unwrap();
    nonce[0] = n;
    nonce
}

fn flow_id() -> String {
    let mut id = [0u8; 8];
    getrandom::fill(&mut id).unwrap();
    format!("flow-test-{}", crate::rounds::hex(&id))
}

/// Every case, in order, on `store`.
async fn suite(store: &Store) {
    consumed_once(store).await;
    consumption_expires_with_the_state(store).await;
    concurrent_consumption_has_one_winner(store).await;
    flows_end_once(store).await;
    flows_expire(store).await;
    waiting_sees_the_end(store).await;
}

async fn consumed_once(store: &Store) {
    let (a, b) = (nonce(1), nonce(2));
    assert_eq!(
        store.consume(&a, now() + KEEP, now(), KEEP).await.unwrap(),
        Consumed::Now
    );
    assert_eq!(
        store.consume(&a, now() + KEEP, now(), KEEP).await.unwrap(),
        Consumed::Before
    );
    assert_eq!(
        store.consume(&b, now() + KEEP, now(), KEEP).await.unwrap(),
        Consumed::Now
    );
    assert_eq!(
        store.consume(&b, now() + KEEP, now(), KEEP).await.unwrap(),
        Consumed::Before
    );
}

async fn consumption_expires_with_the_state(store: &Store) {
    let a = nonce(3);
    assert_eq!(
        store.consume(&a, now() + 150, now(), 150).await.unwrap(),
        Consumed::Now
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    // The record went with the state (the seal refuses the state itself
    // from then on).
    assert_eq!(
        store.consume(&a, now() + KEEP, now(), KEEP).await.unwrap(),
        Consumed::Now
    );
}

async fn concurrent_consumption_has_one_winner(store: &Store) {
    let a = nonce(4);
    let tries = (0..16).map(|_| {
        let store = store.clone();
        tokio::spawn(async move { store.consume(&a, now() + KEEP, now(), KEEP).await.unwrap() })
    });
    let mut won = 0;
    for task in tries.collect::<Vec<_>>() {
        if task.await.unwrap() == Consumed::Now {
            won += 1;
        }
    }
    assert_eq!(won, 1);
}

async fn flows_end_once(store: &Store) {
    let (id, other) = (flow_id(), flow_id());
    assert_eq!(store.flow(&id, now()).await.unwrap(), FlowStatus::Unknown);
    let end = FlowEnd::Finished(json!({"template": "# {title}"}));
    // Nothing to end before it was created.
    assert!(!store.end_flow(&id, &end, now()).await.unwrap());
    store.create_flow(&id, now() + 60_000, now()).await.unwrap();
    store
        .create_flow(&other, now() + 60_000, now())
        .await
        .unwrap();
    assert_eq!(store.flow(&id, now()).await.unwrap(), FlowStatus::Open);
    assert!(store.end_flow(&id, &end, now()).await.unwrap());
    // The first end wins.
    assert!(!store.end_flow(&id, &FlowEnd::Ended, now()).await.unwrap());
    assert_eq!(
        store.flow(&id, now()).await.unwrap(),
        FlowStatus::Ended(end)
    );
    assert_eq!(store.flow(&other, now()).await.unwrap(), FlowStatus::Open);
    assert!(
        store
            .end_flow(&other, &FlowEnd::Ended, now())
            .await
            .unwrap()
    );
    assert_eq!(
        store.flow(&other, now()).await.unwrap(),
        FlowStatus::Ended(FlowEnd::Ended)
    );
    store.remove_flow(&id).await.unwrap();
    assert_eq!(store.flow(&id, now()).await.unwrap(), FlowStatus::Unknown);
    assert!(!store.end_flow(&id, &FlowEnd::Ended, now()).await.unwrap());
}

async fn flows_expire(store: &Store) {
    let id = flow_id();
    store.create_flow(&id, now() + 150, now()).await.unwrap();
    assert_eq!(store.flow(&id, now()).await.unwrap(), FlowStatus::Open);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(store.flow(&id, now()).await.unwrap(), FlowStatus::Unknown);
    assert!(!store.end_flow(&id, &FlowEnd::Ended, now()).await.unwrap());
}

async fn waiting_sees_the_end(store: &Store) {
    let poll = Duration::from_millis(20);
    let id = flow_id();
    store.create_flow(&id, now() + 60_000, now()).await.unwrap();
    let quiet = store.wait_flow(&id, Duration::from_millis(150), poll, now);
    assert_eq!(quiet.await.unwrap(), None, "still open");
    let ender = store.clone();
    let ended = id.clone();
    let end = FlowEnd::Finished(json!(7));
    let sent = end.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(ender.end_flow(&ended, &sent, now()).await.unwrap());
    });
    let started = tokio::time::Instant::now();
    let seen = store.wait_flow(&id, Duration::from_secs(10), poll, now);
    assert_eq!(seen.await.unwrap(), Some(FlowStatus::Ended(end)));
    assert!(started.elapsed() < Duration::from_secs(5));
    // A flow that goes while a round waits ends the wait too.
    let gone = flow_id();
    store
        .create_flow(&gone, now() + 60_000, now())
        .await
        .unwrap();
    let remover = store.clone();
    let removed = gone.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        remover.remove_flow(&removed).await.unwrap();
    });
    let seen = store.wait_flow(&gone, Duration::from_secs(10), poll, now);
    assert_eq!(seen.await.unwrap(), Some(FlowStatus::Unknown));
}

#[tokio::test]
async fn memory_store() {
    suite(&Store::memory(1024)).await;
}

#[test]
fn memory_store_fails_closed_when_full() {
    let store = Store::memory(2);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    rt.block_on(async {
        let t = 1_000;
        for (n, expected) in [(1, Consumed::Now), (2, Consumed::Now), (3, Consumed::Full)] {
            assert_eq!(
                store.consume(&nonce(n), t + 100, t, 100).await.unwrap(),
                expected
            );
        }
        assert_eq!(store.held(), Some(2));
        // Once the held ones expire, there is room again.
        let later = t + 100;
        assert_eq!(
            store
                .consume(&nonce(3), later + 100, later, 100)
                .await
                .unwrap(),
            Consumed::Now
        );
        assert_eq!(store.held(), Some(1));
    });
}

#[cfg(feature = "redis")]
mod redis_runs {
    use super::*;
    use crate::rounds::store::redis_server::RedisServer;

    #[tokio::test]
    async fn redis_store() {
        let Some(server) = RedisServer::start(&[]) else {
            return;
        };
        let store = Store::redis(&server.url(), "suite").await.unwrap();
        suite(&store).await;
        assert_eq!(store.held(), None);
    }

    #[tokio::test]
    async fn redis_that_may_evict_is_refused() {
        for policy in ["allkeys-lru", "volatile-ttl"] {
            let Some(server) = RedisServer::start(&["--maxmemory-policy", policy]) else {
                return;
            };
            let err = Store::redis(&server.url(), "suite").await.unwrap_err();
            let text = err.to_string();
            assert!(
                text.contains(policy) && text.contains("noeviction"),
                "{text}"
            );
        }
    }

    #[tokio::test]
    async fn unreachable_redis_fails_closed_and_recovers() {
        assert!(Store::redis("redis://127.0.0.1:1", "suite").await.is_err());
        assert!(Store::redis("http://example", "suite").await.is_err());
        let Some(mut server) = RedisServer::start(&[]) else {
            return;
        };
        let store = Store::redis(&server.url(), "suite").await.unwrap();
        let (a, b) = (nonce(5), nonce(6));
        assert_eq!(
            store.consume(&a, now() + KEEP, now(), KEEP).await.unwrap(),
            Consumed::Now
        );
        server.stop();
        let err = store
            .consume(&b, now() + KEEP, now(), KEEP)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("Redis"), "{err}");
        assert!(store.flow("f", now()).await.is_err());
        server.restart();
        // The manager reconnects on its own; a fresh Redis (no persistence
        // in this test) knows nothing of `a` any more: the operator's
        // Redis must persist or replicate what it holds.
        let mut recovered = None;
        for _ in 0..50 {
            match store.consume(&b, now() + KEEP, now(), KEEP).await {
                Ok(consumed) => {
                    recovered = Some(consumed);
                    break;
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        assert_eq!(recovered, Some(Consumed::Now));
        assert_eq!(
            store.consume(&b, now() + KEEP, now(), KEEP).await.unwrap(),
            Consumed::Before
        );
    }
}

/// The cost of one round's consumption, memory against Redis, in one run
/// (docs/PERFORMANCE.md): `cargo test -p mcp-roots-rmcp --features redis
/// --release --lib store_cost -- --ignored --nocapture`.
#[cfg(feature = "redis")]
#[tokio::test]
#[ignore = "a measurement: run it by name"]
async fn store_cost_per_round() {
    use crate::rounds::store::redis_server::RedisServer;
    let Some(server) = RedisServer::start(&[]) else {
        return;
    };
    let redis = Store::redis(&server.url(), "cost").await.unwrap();
    let memory = Store::memory(1 << 20);
    for (name, store) in [("memory", &memory), ("redis", &redis)] {
        for concurrency in [1usize, 100] {
            let total = 20_000;
            let mut latencies = Vec::with_capacity(total);
            let started = std::time::Instant::now();
            for _ in 0..total / concurrency {
                let batch = (0..concurrency).map(|_| {
                    let store = store.clone();
                    tokio::spawn(async move {
                        let t = std::time::Instant::now();
                        let done = store.consume(&nonce(0), now() + KEEP, now(), KEEP).await;
                        assert_eq!(done.unwrap(), Consumed::Now);
                        t.elapsed()
                    })
                });
                for task in batch.collect::<Vec<_>>() {
                    latencies.push(task.await.unwrap());
                }
            }
            let wall = started.elapsed();
            latencies.sort();
            let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
            println!(
                "{name:6} concurrency {concurrency:3}: {total} consumptions in {wall:?} \
                 ({:.0}/s), p50 {:?}, p99 {:?}",
                total as f64 / wall.as_secs_f64(),
                at(0.5),
                at(0.99),
            );
        }
    }
}
