//! The IP network functions: `cidrhost`, `cidrnetmask`, `cidrsubnet`,
//! `cidrsubnets`, `cidrcontains`, as OpenTofu's `funcs/cidr.go` computes
//! them with its `ipaddr` package (Go 1.16's address parser, which reads
//! IPv4 octets with leading zeros as decimal) and `go-cidr`, wording and
//! quirks included (a negative host number counts back from the end of
//! the range, and its error names the number after that adjustment).
//!
//! Addresses are held as an integer with their width (32 or 128 bits).
//! Left out: Go's panics for host numbers wider than the address, which
//! here are the "does not accommodate" error.

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

use super::implementation::{Arguments, FunctionError, Implementation};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

pub(super) fn implementation(name: &str) -> Option<Implementation> {
    let simple = Implementation::simple;
    Some(match name {
        "cidrhost" => simple(cidrhost),
        "cidrnetmask" => simple(cidrnetmask),
        "cidrsubnet" => simple(cidrsubnet),
        "cidrsubnets" => simple(cidrsubnets),
        "cidrcontains" => simple(cidrcontains),
        _ => return None,
    })
}

/// A network: its first address (masked) and prefix length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Network {
    address: u128,
    bits: u32,
    prefix: u32,
}

impl Network {
    fn mask(&self) -> u128 {
        mask(self.prefix, self.bits)
    }

    fn contains(&self, address: u128, bits: u32) -> bool {
        bits == self.bits && address & self.mask() == self.address
    }

    fn last(&self) -> u128 {
        self.address | (!self.mask() & full(self.bits))
    }

    fn text(&self) -> String {
        format!("{}/{}", address_text(self.address, self.bits), self.prefix)
    }
}

fn full(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

fn mask(prefix: u32, bits: u32) -> u128 {
    if prefix == 0 {
        return 0;
    }
    full(bits) & !full(bits.saturating_sub(prefix))
}

fn cidrhost(args: &Arguments) -> Result<Value, FunctionError> {
    let host = whole_big(&args.get(1))?;
    let network = parse_network_expression(&super::implementation::text(args, 0))?;
    let host_bits = network.bits - network.prefix;
    let largest = (BigInt::from(1) << host_bits) - 1;
    let mut number = host;
    let mut checked = low_64_bits(&number);
    if number.is_negative() {
        checked = -&number - 1;
        number = &largest - &checked;
    }
    if checked > largest {
        return Err(FunctionError::call(format!(
            "prefix of {} does not accommodate a host numbered {number}",
            network.prefix
        )));
    }
    let offset = number.to_u128().unwrap_or(0);
    Ok(Value::string(address_text(
        network.address | offset,
        network.bits,
    )))
}

fn cidrnetmask(args: &Arguments) -> Result<Value, FunctionError> {
    let text = super::implementation::text(args, 0);
    let network = parse_network_expression(&text)?;
    if network.bits != 32 {
        return Err(FunctionError::call(format!(
            "IPv6 addresses cannot have a netmask: {text}"
        )));
    }
    Ok(Value::string(address_text(network.mask(), 32)))
}

fn cidrsubnet(args: &Arguments) -> Result<Value, FunctionError> {
    let new_bits = super::implementation::whole_number(&args.get(1))?;
    let number = whole_big(&args.get(2))?;
    let network = parse_network_expression(&super::implementation::text(args, 0))?;
    let new_prefix = i64::from(network.prefix) + new_bits;
    if new_prefix > i64::from(network.bits) {
        return Err(FunctionError::call(format!(
            "insufficient address space to extend prefix of {} by {new_bits}",
            network.prefix
        )));
    }
    let largest: u64 = if (0..64).contains(&new_bits) {
        (1u64 << new_bits) - 1
    } else {
        u64::MAX
    };
    if low_64_bits(&number) > BigInt::from(largest) {
        return Err(FunctionError::call(format!(
            "prefix extension of {new_bits} does not accommodate a subnet numbered {number}"
        )));
    }
    let new_prefix = u32::try_from(new_prefix.max(0)).unwrap_or(0);
    let shift = network.bits - new_prefix;
    let offset = number
        .to_u128()
        .and_then(|number| number.checked_shl(shift))
        .unwrap_or(0);
    let subnet = Network {
        address: (network.address | offset) & full(network.bits),
        bits: network.bits,
        prefix: new_prefix,
    };
    Ok(Value::string(subnet.text()))
}

fn cidrsubnets(args: &Arguments) -> Result<Value, FunctionError> {
    let network = parse_network_expression(&super::implementation::text(args, 0))
        .map_err(|error| FunctionError::argument(0, error.message))?;
    let lengths = args.values.get(1..).unwrap_or_default();
    if lengths.is_empty() {
        return Ok(Value::list(Type::String, Vec::new()));
    }
    let mut results = Vec::with_capacity(lengths.len());
    let mut current: Option<Network> = None;
    for (index, length) in lengths.iter().enumerate() {
        let length = super::implementation::whole_number(length)
            .map_err(|error| FunctionError::argument(index + 1, error.message))?;
        if index == 0 {
            let first = i64::from(network.prefix) + length;
            let first = u32::try_from(first.clamp(0, 128))
                .unwrap_or(0)
                .min(network.bits);
            let previous = network.address.wrapping_sub(1) & full(network.bits);
            current = Some(Network {
                address: previous & mask(first, network.bits),
                bits: network.bits,
                prefix: first,
            });
        }
        if length < 1 {
            return Err(FunctionError::argument(
                index + 1,
                "must extend prefix by at least one bit",
            ));
        }
        if length > 32 {
            return Err(FunctionError::argument(
                index + 1,
                "may not extend prefix by more than 32 bits",
            ));
        }
        let prefix = i64::from(network.prefix) + length;
        if prefix > i64::from(network.bits) {
            let protocol = if network.bits == 32 { "IPv4" } else { "IPv6" };
            return Err(FunctionError::argument(
                index + 1,
                format!(
                    "would extend prefix to {prefix} bits, which is too long for an {protocol} address"
                ),
            ));
        }
        let prefix = u32::try_from(prefix).unwrap_or(0);
        let Some(previous) = current else {
            break;
        };
        let (next, rollover) = next_subnet(&previous, prefix);
        if rollover || !network.contains(next.address, next.bits) {
            return Err(FunctionError::argument(
                index + 1,
                format!(
                    "not enough remaining address space for a subnet with a prefix of {prefix} bits after {}",
                    previous.text()
                ),
            ));
        }
        results.push(Value::string(next.text()));
        current = Some(next);
    }
    Ok(Value::list(Type::String, results))
}

/// go-cidr's `NextSubnet`.
fn next_subnet(network: &Network, prefix: u32) -> (Network, bool) {
    let widened = Network {
        address: network.last() & mask(prefix, network.bits),
        bits: network.bits,
        prefix,
    };
    let after = widened.last().wrapping_add(1) & full(network.bits);
    let next = Network {
        address: after & mask(prefix, network.bits),
        bits: network.bits,
        prefix,
    };
    (next, after == 0)
}

fn cidrcontains(args: &Arguments) -> Result<Value, FunctionError> {
    let prefix = super::implementation::text(args, 0);
    let address = super::implementation::text(args, 1);
    let containing = parse_cidr(&prefix).map_err(FunctionError::call)?;
    let (start, end, bits) = match parse_address(&address) {
        Some((start, bits)) => (start, None, bits),
        None => {
            let contained = parse_cidr(&address).map_err(|_| {
                FunctionError::call(format!("invalid IP address or prefix: {address}"))
            })?;
            (contained.address, Some(contained.last()), contained.bits)
        }
    };
    if bits != containing.bits {
        return Err(FunctionError::call(format!(
            "address family mismatch: {prefix} vs. {address}"
        )));
    }
    let inside =
        containing.contains(start, bits) && end.is_none_or(|end| containing.contains(end, bits));
    Ok(Value::bool(inside))
}

/// gocty's `*big.Int`: any whole number.
fn whole_big(value: &Value) -> Result<BigInt, FunctionError> {
    let number = value.as_number().cloned().unwrap_or_else(Number::zero);
    number
        .truncate()
        .filter(|_| number.is_integer())
        .ok_or_else(|| FunctionError::call("value must be a whole number"))
}

/// Go's `big.Int.Uint64` on a number: the low 64 bits of its magnitude.
fn low_64_bits(number: &BigInt) -> BigInt {
    let digits = number.magnitude().to_u64_digits();
    BigInt::from(digits.first().copied().unwrap_or(0))
}

fn parse_network_expression(text: &str) -> Result<Network, FunctionError> {
    parse_cidr(text)
        .map_err(|error| FunctionError::call(format!("invalid CIDR expression: {error}")))
}

/// Go 1.16's `net.ParseCIDR`, the network part.
fn parse_cidr(text: &str) -> Result<Network, String> {
    let invalid = || format!("invalid CIDR address: {text}");
    let (address, prefix) = text.split_once('/').ok_or_else(invalid)?;
    let (address, bits) = parse_address(address).ok_or_else(invalid)?;
    let prefix = decimal(prefix)
        .filter(|prefix| *prefix <= u64::from(bits))
        .ok_or_else(invalid)?;
    let prefix = u32::try_from(prefix).map_err(|_| invalid())?;
    Ok(Network {
        address: address & mask(prefix, bits),
        bits,
        prefix,
    })
}

/// Go's `dtoi`: decimal digits only, below 0xFFFFFF.
fn decimal(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let mut value: u64 = 0;
    for byte in text.bytes() {
        value = value * 10 + u64::from(byte - b'0');
        if value >= 0xFF_FFFF {
            return None;
        }
    }
    Some(value)
}

/// An IPv4 (leading zeros allowed, decimal) or IPv6 address, with its width.
fn parse_address(text: &str) -> Option<(u128, u32)> {
    if let Some(address) = parse_ipv4(text) {
        return Some((u128::from(address), 32));
    }
    let address: std::net::Ipv6Addr = text.parse().ok()?;
    let value = u128::from(address);
    if let Some(v4) = address.to_ipv4_mapped() {
        return Some((u128::from(u32::from(v4)), 32));
    }
    Some((value, 128))
}

fn parse_ipv4(text: &str) -> Option<u32> {
    let mut value: u32 = 0;
    let mut n_fields = 0;
    for field in text.split('.') {
        let octet = decimal(field).filter(|octet| *octet <= 0xFF)?;
        value = (value << 8) | u32::try_from(octet).ok()?;
        n_fields += 1;
    }
    (n_fields == 4).then_some(value)
}

/// Go's `IP.String()`.
fn address_text(address: u128, bits: u32) -> String {
    if bits == 32 {
        let octets = u32::try_from(address & 0xFFFF_FFFF)
            .unwrap_or(0)
            .to_be_bytes();
        return std::net::Ipv4Addr::from(octets).to_string();
    }
    let v6 = std::net::Ipv6Addr::from(address);
    match v6.to_ipv4_mapped() {
        Some(v4) => v4.to_string(),
        None => v6.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks_parse_as_go_1_16_reads_them() {
        let network = parse_cidr("010.001.0.0/16").unwrap();
        assert_eq!(network.text(), "10.1.0.0/16");
        assert_eq!(parse_cidr("fd00::1/8").unwrap().text(), "fd00::/8");
        assert!(parse_cidr("10.0.0.0/33").is_err());
        assert!(parse_cidr("10.0.0/8").is_err());
    }
}
