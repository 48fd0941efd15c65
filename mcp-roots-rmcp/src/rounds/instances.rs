//! Tests: the instances of one deployment, each with its own [`Rounds`]
//! (same key, one shared store), whose clocks disagree (an injectable
//! clock per instance), and a Redis that restarts or answers late.
//!
//! A state is "sealed" by one instance ([`Rounds::stamp`]: its nonce and
//! expiry by that instance's clock), consumed by another
//! ([`Rounds::accept`], as [`Rounds::open`] does after the seal) and
//! replayed on a third: the replay must be refused as long as the replaying
//! instance's own clock would still accept the state.

use std::time::{Duration, Instant, SystemTime};

use super::state::StateError;
use super::{Rounds, Store};

/// An instance whose clock is `offset_ms` ahead of the system's (behind
/// when negative).
fn instance(store: &Store, ttl: Duration, offset_ms: i64) -> Rounds {
    let offset = Duration::from_millis(offset_ms.unsigned_abs());
    Rounds::with_key(&[9; 32])
        .with_ttl(ttl)
        .with_store(store.clone())
        .with_clock(move || match offset_ms >= 0 {
            true => SystemTime::now() + offset,
            false => SystemTime::now() - offset,
        })
}

/// One row: the clocks of the instance that consumes and of the one that
/// replays, against the sealing one's, and how long after the consumption
/// the replay comes (past the record the old rule kept: `expires − now` by
/// the consuming instance's clock).
struct Skew {
    name: &'static str,
    consumer_ms: i64,
    replayer_ms: i64,
    replay_after_ms: u64,
}

const SKEWS: [Skew; 5] = [
    Skew {
        name: "the consumer 900 ms ahead, the sealer replays",
        consumer_ms: 900,
        replayer_ms: 0,
        replay_after_ms: 300,
    },
    Skew {
        name: "the consumer 500 ms ahead, the sealer replays",
        consumer_ms: 500,
        replayer_ms: 0,
        replay_after_ms: 700,
    },
    Skew {
        name: "a third instance 800 ms behind replays",
        consumer_ms: 0,
        replayer_ms: -800,
        replay_after_ms: 1_200,
    },
    Skew {
        name: "the consumer 900 ms ahead, a third 400 ms behind replays",
        consumer_ms: 900,
        replayer_ms: -400,
        replay_after_ms: 1_200,
    },
    Skew {
        name: "the consumer 500 ms behind, the sealer replays",
        consumer_ms: -500,
        replayer_ms: 0,
        replay_after_ms: 700,
    },
];

/// Every skew row on `store`, concurrently (each waits on its own).
async fn skewed_clocks_never_reopen_a_consumed_state(store: &Store) {
    let ttl = Duration::from_millis(1_000);
    let rows = SKEWS.iter().map(|row| {
        let sealer = instance(store, ttl, 0);
        let consumer = instance(store, ttl, row.consumer_ms);
        let replayer = instance(store, ttl, row.replayer_ms);
        tokio::spawn(async move {
            let (nonce, expires) = sealer.stamp();
            assert_eq!(
                consumer.accept(&nonce, expires).await,
                Ok(()),
                "{}",
                row.name
            );
            tokio::time::sleep(Duration::from_millis(row.replay_after_ms)).await;
            // The replaying instance's clock still accepts the state…
            assert!(
                replayer.now_ms() < expires,
                "{}: a row that tests nothing",
                row.name
            );
            // …and the record is still there.
            let replayed = replayer.accept(&nonce, expires).await;
            assert_eq!(replayed, Err(StateError::Replayed), "{}", row.name);
        })
    });
    for row in rows.collect::<Vec<_>>() {
        row.await.unwrap();
    }
}

#[test]
fn the_record_outlives_the_state_by_the_tolerated_skew() {
    let store = Store::memory(16);
    let rounds =
        instance(&store, Duration::from_secs(300), 0).with_max_clock_skew(Duration::from_secs(60));
    let now = 1_000_000_000;
    // (expires − now by the consuming clock, record kept)
    for (left, kept) in [
        (300_000, 360_000), // sealed here, consumed at once
        (10_000, 360_000),  // this clock 290 s ahead: not shortened
        (1, 360_000),       // a millisecond left by this clock
        (400_000, 460_000), // this clock behind the sealer's: longer
    ] {
        assert_eq!(rounds.record_ms(now + left, now), kept, "{left} ms left");
    }
    assert_eq!(
        Rounds::new().max_clock_skew(),
        super::DEFAULT_MAX_CLOCK_SKEW
    );
}

#[tokio::test]
async fn memory_store_with_skewed_clocks() {
    skewed_clocks_never_reopen_a_consumed_state(&Store::memory(1024)).await;
}

#[cfg(feature = "redis")]
mod redis_runs {
    use super::*;
    use crate::rounds::store::redis_server::RedisServer;

    #[tokio::test]
    async fn redis_store_with_skewed_clocks() {
        let Some(server) = RedisServer::start(&[]) else {
            return;
        };
        let store = Store::redis(&server.url(), "skew").await.unwrap();
        skewed_clocks_never_reopen_a_consumed_state(&store).await;
    }

    #[tokio::test]
    async fn a_redis_restart_between_rounds_costs_no_round() {
        let Some(mut server) = RedisServer::start(&[]) else {
            return;
        };
        let store = Store::redis(&server.url(), "restart").await.unwrap();
        // Two instances: the one that served before the restart, and one
        // idle since it connected.
        let busy = instance(&store, Duration::from_secs(60), 0);
        let idle = instance(&store, Duration::from_secs(60), 0);
        for (name, restarts, idle_ms) in [
            ("one restart", 1, 0),
            ("two restarts in a row", 2, 0),
            ("one restart, then a quiet while", 1, 500),
        ] {
            let (before, expires) = busy.stamp();
            assert_eq!(busy.accept(&before, expires).await, Ok(()), "{name}");
            for _ in 0..restarts {
                server.stop();
                server.restart();
            }
            tokio::time::sleep(Duration::from_millis(idle_ms)).await;
            for rounds in [&idle, &busy] {
                let (nonce, expires) = rounds.stamp();
                let started = Instant::now();
                // The first round after the restart, not a later one.
                assert_eq!(rounds.accept(&nonce, expires).await, Ok(()), "{name}");
                assert!(started.elapsed() < Duration::from_secs(5), "{name}");
                let again = rounds.accept(&nonce, expires).await;
                assert_eq!(again, Err(StateError::Replayed), "{name}");
            }
        }
    }

    #[tokio::test]
    async fn a_slow_redis_records_the_round_once_and_it_stands() {
        let Some(server) = RedisServer::start(&["--enable-debug-command", "yes"]) else {
            return;
        };
        let store = Store::redis(&server.url(), "slow").await.unwrap();
        let rounds = instance(&store, Duration::from_secs(60), 0);
        let client = redis::Client::open(server.url()).unwrap();
        // Redis asleep for less than the 2 s timeout, then for more: the
        // first try's write lands when Redis wakes, the retry finds it.
        for sleep_s in ["1", "3"] {
            let mut blocker = client.get_multiplexed_async_connection().await.unwrap();
            tokio::spawn(async move {
                let _: Result<(), _> = redis::cmd("DEBUG")
                    .arg("SLEEP")
                    .arg(sleep_s)
                    .query_async(&mut blocker)
                    .await;
            });
            tokio::time::sleep(Duration::from_millis(100)).await;
            let (nonce, expires) = rounds.stamp();
            assert_eq!(rounds.accept(&nonce, expires).await, Ok(()), "{sleep_s} s");
            let again = rounds.accept(&nonce, expires).await;
            assert_eq!(again, Err(StateError::Replayed), "{sleep_s} s");
        }
        // A flow's end written late is this call's end too, and stays the
        // first.
        use crate::rounds::store::FlowEnd;
        let now = rounds.now_ms();
        store
            .create_flow("flow-slow", now + 60_000, now)
            .await
            .unwrap();
        let mut blocker = client.get_multiplexed_async_connection().await.unwrap();
        tokio::spawn(async move {
            let _: Result<(), _> = redis::cmd("DEBUG")
                .arg("SLEEP")
                .arg("3")
                .query_async(&mut blocker)
                .await;
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        let end = FlowEnd::Finished(serde_json::json!("saved"));
        assert!(store.end_flow("flow-slow", &end, now).await.unwrap());
        assert!(
            !store
                .end_flow("flow-slow", &FlowEnd::Ended, now)
                .await
                .unwrap()
        );
    }
}
