//! Text files bundled into a library deflated and inflated once, on first use: the 8-bit
//! builds' sources (`kempelen-roms`) and the lessons' Markdown (`kempelen-claims`). A library
//! that carries them this way holds about a quarter of their bytes, which is what the page's
//! wasm downloads.
//!
//! A build script gathers the files of a bundle ([`read_folder`]) and writes them with [`pack`]; the library
//! includes the packed bytes (`include_bytes!`) with the names and lengths `pack` returned and
//! splits them again with [`unpack`], once, into a `OnceLock`:
//!
//! ```
//! let files = vec![("a.md".to_string(), "# A\n".to_string()), ("b.md".to_string(), "B".to_string())];
//! let out = std::env::temp_dir().join(format!("kempelen-bundle-doc-{}", std::process::id()));
//! let sizes = kempelen_bundle::pack(&out, &files).unwrap();
//! let packed = std::fs::read(&out).unwrap();
//! let sizes: Vec<(&'static str, usize)> =
//!     sizes.into_iter().map(|(n, l)| (&*n.leak(), l)).collect();
//! assert_eq!(kempelen_bundle::unpack(&packed, &sizes), [("a.md", "# A\n"), ("b.md", "B")]);
//! # std::fs::remove_file(out).unwrap();
//! ```

use std::path::Path;

/// For build scripts: the files of `dir` whose names `keep` takes, sorted by name, as (name,
/// text). The folder and each file are named to cargo as inputs (`rerun-if-changed`), so a
/// changed, added or removed file rebuilds the bundle.
///
/// # Panics
/// When the folder or a file cannot be read as text: the build stops, naming it.
pub fn read_folder(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<(String, String)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| keep(n))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let path = dir.join(&n);
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (n, text)
        })
        .collect()
}

/// For build scripts: writes the texts of `files` (name, text) one after the other, deflated,
/// to `out`, and returns each one's name and length in bytes, in that order: what [`unpack`]
/// needs to split them again. The deflate stream is zopfli's (about 4 % smaller than
/// miniz_oxide's best level on the 8-bit builds' sources, the page's wasm that much lighter;
/// any inflater reads it).
pub fn pack(out: &Path, files: &[(String, String)]) -> std::io::Result<Vec<(String, usize)>> {
    let text: String = files.iter().map(|(_, t)| t.as_str()).collect();
    let mut packed = Vec::new();
    zopfli::compress(
        zopfli::Options::default(),
        zopfli::Format::Deflate,
        text.as_bytes(),
        &mut packed,
    )?;
    std::fs::write(out, packed)?;
    Ok(files.iter().map(|(n, t)| (n.clone(), t.len())).collect())
}

/// The files of one bundle: `packed` is their texts one after the other, deflated by
/// [`pack`]; `sizes` gives their names and lengths in bytes, in that order. The inflated text
/// lives as long as the program (a library keeps the result in a `OnceLock`, so each bundle is
/// inflated once).
///
/// # Panics
/// When `packed` is not what [`pack`] wrote for these sizes: a build that bundled it wrongly,
/// never the user's input.
pub fn unpack(packed: &[u8], sizes: &[(&'static str, usize)]) -> Vec<(&'static str, &'static str)> {
    let total: usize = sizes.iter().map(|(_, n)| n).sum();
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(packed, total)
        .expect("the build script deflated the bundle whole");
    assert_eq!(
        bytes.len(),
        total,
        "the bundle's length is its files' lengths"
    );
    let text: &'static str = String::from_utf8(bytes)
        .expect("the bundled files are UTF-8 (the build script read them as text)")
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
