//! The decoder on RFC 7541's own examples (Appendix C.4 and C.6: Huffman
//! strings, the dynamic table, eviction), the encoder read back by the
//! decoder, and malformed blocks.

use super::super::hpack_tables::CODES;
use super::*;

fn bytes(hex: &str) -> Vec<u8> {
    let digits: Vec<char> = hex.chars().filter(char::is_ascii_hexdigit).collect();
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(&pair.iter().collect::<String>(), 16).unwrap())
        .collect()
}

fn text(fields: &[HeaderField]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(name, value)| {
            (
                String::from_utf8(name.clone()).unwrap(),
                String::from_utf8(value.clone()).unwrap(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

#[test]
fn rfc_7541_requests_with_huffman_share_the_dynamic_table() {
    let mut decoder = HpackDecoder::new(4096);
    let first = decoder
        .decode(&bytes("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"))
        .unwrap();
    assert_eq!(
        text(&first),
        pairs(&[
            (":method", "GET"),
            (":scheme", "http"),
            (":path", "/"),
            (":authority", "www.example.com")
        ])
    );
    let second = decoder
        .decode(&bytes("8286 84be 5886 a8eb 1064 9cbf"))
        .unwrap();
    assert_eq!(
        text(&second).last().unwrap(),
        &("cache-control".to_owned(), "no-cache".to_owned())
    );
    assert_eq!(
        text(&second)[3],
        (":authority".to_owned(), "www.example.com".to_owned())
    );
    let third = decoder
        .decode(&bytes(
            "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
        ))
        .unwrap();
    assert_eq!(
        text(&third),
        pairs(&[
            (":method", "GET"),
            (":scheme", "https"),
            (":path", "/index.html"),
            (":authority", "www.example.com"),
            ("custom-key", "custom-value"),
        ])
    );
}

#[test]
fn rfc_7541_responses_evict_from_a_small_table() {
    let mut decoder = HpackDecoder::new(256);
    decoder
        .decode(&bytes(
            "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
             2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
        ))
        .unwrap();
    let second = decoder.decode(&bytes("4883 640e ffc1 c0bf")).unwrap();
    assert_eq!(text(&second)[0], (":status".to_owned(), "307".to_owned()));
    assert_eq!(
        text(&second)[3],
        ("location".to_owned(), "https://www.example.com".to_owned())
    );
    let third = decoder
        .decode(&bytes(
            "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
             77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
             9587 3160 65c0 03ed 4ee5 b106 3d50 07",
        ))
        .unwrap();
    assert_eq!(
        text(&third),
        pairs(&[
            (":status", "200"),
            ("cache-control", "private"),
            ("date", "Mon, 21 Oct 2013 20:13:22 GMT"),
            ("location", "https://www.example.com"),
            ("content-encoding", "gzip"),
            (
                "set-cookie",
                "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"
            ),
        ])
    );
    assert!(decoder.table_size <= 256);
}

#[test]
fn every_byte_decodes_from_its_huffman_code() {
    let mut bits: Vec<bool> = Vec::new();
    for (code, length) in CODES {
        for shift in (0..length).rev() {
            bits.push((code >> shift) & 1 == 1);
        }
    }
    while !bits.len().is_multiple_of(8) {
        bits.push(true);
    }
    let encoded: Vec<u8> = bits
        .chunks(8)
        .map(|chunk| {
            chunk
                .iter()
                .fold(0u8, |byte, bit| (byte << 1) | u8::from(*bit))
        })
        .collect();
    assert_eq!(
        decode_huffman(&encoded).unwrap(),
        (0..=255).collect::<Vec<u8>>()
    );
}

#[test]
fn encoded_headers_decode_back() {
    let long_value = "x".repeat(300);
    let fields = [
        (":path", "/tfplugin6.Provider/GetProviderSchema"),
        ("te", "trailers"),
        ("long", long_value.as_str()),
    ];
    let decoded = HpackDecoder::new(0)
        .decode(&encode_headers(&fields))
        .unwrap();
    assert_eq!(text(&decoded), pairs(&fields));
}

#[test]
fn malformed_blocks_are_errors() {
    for block in [
        "80",
        "be",
        "3fe21f",
        "0085ffffffffff",
        "00",
        "0f",
        "ff80808080808001",
    ] {
        assert!(
            HpackDecoder::new(4096).decode(&bytes(block)).is_err(),
            "{block}"
        );
    }
    // Padding longer than seven bits, and padding with a zero bit.
    assert!(decode_huffman(&[0xff, 0xff]).is_err());
    assert!(decode_huffman(&[0x1e]).is_err());
}
