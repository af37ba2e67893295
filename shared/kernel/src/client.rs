//! Which client sent a request, as far as this service can tell.
//!
//! The address is resolved once per request (by the host's outermost middleware, from
//! [`ClientAddressResolver`]) and stored in the request; everything that keys state or logs by
//! client reads it from there through [`ClientAddress::of`]: the rate limiter's per-address
//! buckets, the idempotency layer's anonymous scope and the access log. So they always agree on
//! who "the same client" is.
//!
//! - **Behind a proxy**, the socket's peer is the proxy, shared by every client. When the peer is
//!   one of `server.trusted_proxies`, the client is the right-most address of the forwarding
//!   header (`X-Forwarded-For` or RFC 7239 `Forwarded`) that is *not* a trusted proxy: each proxy
//!   appends the address it received from, so everything right of that point was written by
//!   proxies we trust, and everything left of it by the client (who may write anything). A peer
//!   that is not trusted is the client, whatever headers it sends.
//! - **Over IPv6**, one subscriber typically holds a whole /64 and can rotate through it at will,
//!   so [`ClientAddress::group`] (what limits key by) is the /64, not the address.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

use ipnet::IpNet;
use poem::Request;
use poem::http::HeaderMap;

/// The client of one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(Option<IpAddr>);

impl ClientAddress {
    pub fn new(ip: IpAddr) -> Self {
        Self(Some(canonical(ip)))
    }

    /// A listener without IP addresses (a Unix socket, an in-process test client).
    pub const UNKNOWN: Self = Self(None);

    /// The request's client as the host resolved it; the socket's peer when no resolver ran (a
    /// module served on its own, in a unit test).
    pub fn of(req: &Request) -> Self {
        req.extensions()
            .get::<Self>()
            .copied()
            .unwrap_or_else(|| Self::peer(req))
    }

    fn peer(req: &Request) -> Self {
        req.remote_addr()
            .as_socket_addr()
            .map_or(Self::UNKNOWN, |address| Self::new(address.ip()))
    }

    pub fn ip(&self) -> Option<IpAddr> {
        self.0
    }

    /// What per-client limits key by: an IPv4 address as is, an IPv6 address's /64
    /// (`2001:db8:1:2::/64`), `unknown` without one.
    pub fn group(&self) -> String {
        match self.0 {
            Some(IpAddr::V4(ip)) => ip.to_string(),
            Some(IpAddr::V6(ip)) => {
                let network = u128::from(ip) & !(u128::MAX >> 64);
                format!("{}/64", Ipv6Addr::from(network))
            }
            None => "unknown".to_owned(),
        }
    }
}

/// The full address (`203.0.113.7`, `2001:db8::1`), for logs.
impl fmt::Display for ClientAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(ip) => ip.fmt(f),
            None => f.write_str("unknown"),
        }
    }
}

/// An IPv4 client reaching a dual-stack listener appears as `::ffff:a.b.c.d`; it is the same
/// client as `a.b.c.d`, and must not be grouped by /64 with every other IPv4 client.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

/// The key by which the request's client is grouped for limits and the anonymous idempotency
/// scope: [`ClientAddress::group`] of [`ClientAddress::of`].
pub fn client_address(req: &Request) -> String {
    ClientAddress::of(req).group()
}

/// Which header the trusted proxies write the client's address to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, proxy2` (nginx, HAProxy, most cloud load balancers).
    #[default]
    XForwardedFor,
    /// RFC 7239 `Forwarded: for=client, for="[2001:db8::1]:443"`.
    Forwarded,
}

impl FromStr for ForwardedHeader {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(Self::XForwardedFor),
            "forwarded" => Ok(Self::Forwarded),
            _ => Err(format!(
                "`{text}` is not a forwarding header: use `x-forwarded-for` or `forwarded`"
            )),
        }
    }
}

impl ForwardedHeader {
    fn name(self) -> &'static str {
        match self {
            Self::XForwardedFor => "x-forwarded-for",
            Self::Forwarded => "forwarded",
        }
    }
}

/// Resolves a request's client from its peer and, when the peer is a trusted proxy, the
/// forwarding header.
#[derive(Debug, Clone, Default)]
pub struct ClientAddressResolver {
    trusted: Vec<IpNet>,
    header: ForwardedHeader,
}

impl ClientAddressResolver {
    /// Trusts nobody: the client is the socket's peer.
    pub fn peer_only() -> Self {
        Self::default()
    }

    /// Trusts the proxies in `trusted` (CIDRs such as `10.0.0.0/8`, or single addresses) to
    /// write `header` truthfully. The error names the entry that is not an address or network.
    pub fn new(trusted: &[String], header: ForwardedHeader) -> Result<Self, String> {
        let trusted = trusted
            .iter()
            .map(|entry| {
                let entry = entry.trim();
                IpNet::from_str(entry)
                    .or_else(|_| IpAddr::from_str(entry).map(IpNet::from))
                    .map(|net| net.trunc())
                    .map_err(|_| format!("`{entry}` is neither an IP address nor a CIDR network"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { trusted, header })
    }

    fn is_trusted(&self, ip: IpAddr) -> bool {
        self.trusted.iter().any(|net| net.contains(&ip))
    }

    /// The client of a request from `peer` carrying `headers`.
    pub fn resolve(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> ClientAddress {
        let Some(peer) = peer.map(canonical) else {
            return ClientAddress::UNKNOWN;
        };
        if !self.is_trusted(peer) {
            return ClientAddress::new(peer);
        }
        // Hops from the client's side to ours; several header lines are one list, in order.
        let hops: Vec<&str> = headers
            .get_all(self.header.name())
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .collect();
        // Walk back from the proxy nearest us. Every hop right of the client was written by a
        // trusted proxy; a hop we cannot read ends the walk at the proxy that reported it (its
        // own address is the best we know), rather than at anything further left.
        let mut client = peer;
        for hop in hops.iter().rev() {
            let Some(ip) = self.parse_hop(hop) else {
                break;
            };
            client = ip;
            if !self.is_trusted(ip) {
                break;
            }
        }
        ClientAddress::new(client)
    }

    fn parse_hop(&self, hop: &str) -> Option<IpAddr> {
        match self.header {
            ForwardedHeader::XForwardedFor => parse_node(hop.trim()),
            ForwardedHeader::Forwarded => hop
                .split(';')
                .filter_map(|pair| pair.split_once('='))
                .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
                .and_then(|(_, value)| parse_node(value.trim().trim_matches('"'))),
        }
        .map(canonical)
    }
}

/// An address as proxies write it: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`. Obfuscated (`_hidden`) and `unknown` nodes are not
/// addresses.
fn parse_node(node: &str) -> Option<IpAddr> {
    if let Some(bracketed) = node.strip_prefix('[') {
        let (inside, _port) = bracketed.split_once(']')?;
        return Ipv6Addr::from_str(inside).ok().map(IpAddr::V6);
    }
    IpAddr::from_str(node).ok().or_else(|| {
        let (host, port) = node.rsplit_once(':')?;
        port.parse::<u16>().ok()?;
        host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use poem::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("a test address")
    }

    fn headers(name: &str, values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in values {
            map.append(
                poem::http::HeaderName::from_str(name).expect("a header name"),
                HeaderValue::from_str(value).expect("a header value"),
            );
        }
        map
    }

    fn resolver(trusted: &[&str], header: ForwardedHeader) -> ClientAddressResolver {
        let trusted: Vec<String> = trusted.iter().map(|entry| (*entry).to_owned()).collect();
        ClientAddressResolver::new(&trusted, header).expect("valid trusted proxies")
    }

    #[test]
    fn forwarding_headers_are_read_only_from_trusted_peers() {
        let proxies = resolver(
            &["10.0.0.0/8", "2001:db8:ffff::/48"],
            ForwardedHeader::XForwardedFor,
        );
        let cases: &[(&str, &[&str], &str)] = &[
            // (peer, X-Forwarded-For lines, resolved client)
            ("203.0.113.9", &["198.51.100.1"], "203.0.113.9"),
            ("10.0.0.2", &["198.51.100.1"], "198.51.100.1"),
            ("10.0.0.2", &[], "10.0.0.2"),
            // The client wrote the left-most entry itself: it is not believed.
            ("10.0.0.2", &["6.6.6.6, 198.51.100.1"], "198.51.100.1"),
            // A chain of trusted proxies is walked through.
            (
                "10.0.0.2",
                &["198.51.100.1, 10.1.1.1, 10.2.2.2"],
                "198.51.100.1",
            ),
            (
                "10.0.0.2",
                &["6.6.6.6", "198.51.100.1, 10.1.1.1"],
                "198.51.100.1",
            ),
            // Only trusted hops: the left-most is the client.
            ("10.0.0.2", &["10.1.1.1"], "10.1.1.1"),
            // Garbage where the client should be: the reporting proxy is the best we know.
            ("10.0.0.2", &["198.51.100.1, unknown"], "10.0.0.2"),
            ("10.0.0.2", &["nonsense"], "10.0.0.2"),
            ("10.0.0.2", &["198.51.100.1:4711"], "198.51.100.1"),
            ("10.0.0.2", &["[2001:db8::7]:443"], "2001:db8::7"),
            ("2001:db8:ffff::1", &["2001:db8::7"], "2001:db8::7"),
            ("::ffff:10.0.0.2", &["::ffff:198.51.100.1"], "198.51.100.1"),
        ];
        for (peer, lines, expected) in cases {
            let resolved = proxies.resolve(Some(ip(peer)), &headers("x-forwarded-for", lines));
            assert_eq!(
                resolved.ip(),
                Some(ip(expected)),
                "peer {peer}, XFF {lines:?}"
            );
        }
    }

    #[test]
    fn rfc_7239_forwarded_is_read_when_configured() {
        let proxies = resolver(&["10.0.0.1"], ForwardedHeader::Forwarded);
        let cases: &[(&[&str], &str)] = &[
            (&["for=198.51.100.1"], "198.51.100.1"),
            (
                &["For=\"[2001:db8:cafe::17]:4711\";proto=https"],
                "2001:db8:cafe::17",
            ),
            (
                &["for=6.6.6.6, for=198.51.100.1;by=10.0.0.1"],
                "198.51.100.1",
            ),
            (&["proto=https;for=198.51.100.1:80"], "198.51.100.1"),
            (&["for=_hidden"], "10.0.0.1"),
        ];
        for (lines, expected) in cases {
            let resolved = proxies.resolve(Some(ip("10.0.0.1")), &headers("forwarded", lines));
            assert_eq!(resolved.ip(), Some(ip(expected)), "Forwarded {lines:?}");
        }
        // The other header is not consulted.
        let resolved = proxies.resolve(
            Some(ip("10.0.0.1")),
            &headers("x-forwarded-for", &["198.51.100.1"]),
        );
        assert_eq!(resolved.ip(), Some(ip("10.0.0.1")));
    }

    #[test]
    fn nobody_is_trusted_by_default() {
        let resolved = ClientAddressResolver::peer_only().resolve(
            Some(ip("127.0.0.1")),
            &headers("x-forwarded-for", &["198.51.100.1"]),
        );
        assert_eq!(resolved.ip(), Some(ip("127.0.0.1")));
        assert_eq!(
            ClientAddressResolver::peer_only().resolve(None, &HeaderMap::new()),
            ClientAddress::UNKNOWN
        );
    }

    #[test]
    fn groups_are_ipv4_addresses_and_ipv6_slash_64s() {
        let cases = [
            ("203.0.113.7", "203.0.113.7"),
            ("::ffff:203.0.113.7", "203.0.113.7"),
            ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
            ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
            ("::1", "::/64"),
        ];
        for (address, group) in cases {
            assert_eq!(ClientAddress::new(ip(address)).group(), group, "{address}");
        }
        assert_eq!(ClientAddress::UNKNOWN.group(), "unknown");
        assert_eq!(
            ClientAddress::new(ip("2001:db8::1")).to_string(),
            "2001:db8::1",
            "logs show the whole address"
        );
    }

    #[test]
    fn trusted_proxies_must_be_addresses_or_networks() {
        let entries = [
            "10.0.0.0/8".to_owned(),
            "192.0.2.1".to_owned(),
            "::1".to_owned(),
        ];
        assert!(ClientAddressResolver::new(&entries, ForwardedHeader::Forwarded).is_ok());
        let err =
            ClientAddressResolver::new(&["10.0.0.0/33".to_owned()], ForwardedHeader::Forwarded)
                .expect_err("not a network");
        assert!(err.contains("10.0.0.0/33"), "{err}");
        assert!("X-Forwarded-For".parse::<ForwardedHeader>().is_ok());
        assert!("x-real-ip".parse::<ForwardedHeader>().is_err());
    }
}
