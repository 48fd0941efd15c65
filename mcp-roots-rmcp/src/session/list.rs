//! Sending `roots/list` to a client (2025-06-18 and 2025-11-25): the
//! session's one request on the network, its answer turned into plain
//! values by [`values::legacy`](crate::values::legacy).
//!
//! rmcp 3.x marks `Peer<RoleServer>::list_roots` `#[deprecated]` (see
//! `values::legacy`); the `allow` is confined to this module and that one.
#![allow(deprecated)]

use std::time::Duration;

use rmcp::service::ServiceError;
use rmcp::{Peer, RoleServer};

use crate::values::legacy::{ClientRoot, client_roots};

/// Sends `roots/list` and waits at most `timeout` for the answer.
pub(crate) async fn list_roots(
    peer: &Peer<RoleServer>,
    timeout: Duration,
) -> Result<Vec<ClientRoot>, ServiceError> {
    let answer = tokio::time::timeout(timeout, peer.list_roots())
        .await
        .map_err(|_| ServiceError::Timeout { timeout })??;
    Ok(client_roots(answer))
}
