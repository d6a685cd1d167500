//! The bundled text files (the ports' `.asm`/`.inc` sources, the targets' files) are stored
//! deflated in the library, one bundle per folder, and inflated once, on first use: the page's
//! wasm carries a quarter of their bytes. `build.rs` writes each bundle (the files' texts one
//! after the other) and the names and lengths that split it again.

/// The files of one bundle: `packed` is their texts one after the other, deflated by
/// `build.rs`; `sizes` gives their names and lengths in bytes, in that order. The inflated text
/// lives as long as the program (each bundle is inflated once, into a `OnceLock`).
pub(crate) fn unpack(
    packed: &[u8],
    sizes: &[(&'static str, usize)],
) -> Vec<(&'static str, &'static str)> {
    let total: usize = sizes.iter().map(|(_, n)| n).sum();
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(packed, total)
        .expect("build.rs deflated the bundle whole");
    assert_eq!(
        bytes.len(),
        total,
        "the bundle's length is its files' lengths"
    );
    let text: &'static str = String::from_utf8(bytes)
        .expect("the bundled files are UTF-8 (build.rs read them as text)")
        .leak();
    let mut at = 0;
    sizes
        .iter()
        .map(|&(name, n)| {
            let file = &text[at..at + n];
            at += n;
            (name, file)
        })
        .collect()
}
