/**
 * Host names refused by name, before any DNS lookup: loopback aliases, cloud
 * metadata names and the special-use suffixes that only ever mean "this machine" or "this
 * network". A resolver may map them anywhere (/etc/hosts, mDNS, a VPC resolver), so their
 * resolved address alone is not trusted to reveal what they are. Pure: no DNS, no sockets.
 */

/** Reason for names that mean this machine. */
const LOCAL = "a local host name";
/** Reason for names of cloud metadata services. */
const METADATA = "a cloud metadata host name";
/** Reason for names that only resolve inside a private network. */
const PRIVATE = "a private network host name";

/** Exact names, checked first so the metadata names under `.internal` get their own reason. */
const BLOCKED_NAMES: ReadonlyMap<string, string> = new Map([
  ["localhost", LOCAL], // RFC 6761 §6.3
  ["localhost.localdomain", LOCAL], // common /etc/hosts alias
  ["localhost6", LOCAL], // common /etc/hosts alias (Red Hat)
  ["localhost6.localdomain6", LOCAL], // common /etc/hosts alias (Red Hat)
  ["ip6-localhost", LOCAL], // Debian /etc/hosts alias for ::1
  ["ip6-loopback", LOCAL], // Debian /etc/hosts alias for ::1
  ["metadata.google.internal", METADATA], // GCP metadata server
  ["metadata.goog", METADATA], // GCP metadata server
  ["metadata", METADATA], // GCP short name via the search domain
  ["instance-data", METADATA], // AWS EC2 short name
  ["instance-data.ec2.internal", METADATA], // AWS EC2 instance metadata
  ["metadata.tencentyun.com", METADATA], // Tencent Cloud metadata
  ["metadata.platformequinix.com", METADATA], // Equinix Metal metadata (answers by source IP)
  ["metadata.packet.net", METADATA], // Equinix Metal metadata, former name
]);

/** Suffixes (a label boundary before them) refused with their reason. */
const BLOCKED_SUFFIXES: readonly (readonly [string, string])[] = [
  [".localhost", LOCAL], // RFC 6761 §6.3: every name under localhost is loopback
  [".internal", PRIVATE], // ICANN private-use TLD (2024), used by GCP, AWS, Docker
  [".local", PRIVATE], // RFC 6762 multicast DNS, link-local
  [".home.arpa", PRIVATE], // RFC 8375 home networks
];

/** Trailing dots: `localhost.` is the same name as `localhost` (an absolute name). */
const TRAILING_DOTS = /\.+$/;

/**
 * Why a host name is refused by name, or undefined when its addresses decide. Input is
 * `URL.hostname` (already lowercased and IDNA-mapped by WHATWG URL); trailing dots are ignored.
 *
 * @example
 * blockedHostnameReason("LocalHost.")                // "a local host name"
 * blockedHostnameReason("metadata.google.internal")  // "a cloud metadata host name"
 * blockedHostnameReason("example.com")               // undefined
 */
export function blockedHostnameReason(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(TRAILING_DOTS, "");
  const exact = BLOCKED_NAMES.get(name);
  if (exact !== undefined) return exact;
  for (const [suffix, reason] of BLOCKED_SUFFIXES) {
    if (name.endsWith(suffix) || name === suffix.slice(1)) return reason;
  }
  return undefined;
}
