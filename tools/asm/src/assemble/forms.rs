//! Help for diagnostics: the accepted forms of a mnemonic and the closest known name.

use crate::isa::Instr;

/// Operand classes in the Z80 manual's notation, tried in this order.
const CLASSES: &[(&str, &[&str])] = &[
    ("r", &["A", "B", "C", "D", "E", "H", "L"]),
    ("cc", &["NZ", "Z", "NC", "C", "PO", "PE", "P", "M"]),
    ("cc", &["NZ", "Z", "NC", "C"]),
    ("b", &["0", "1", "2", "3", "4", "5", "6", "7"]),
    (
        "p",
        &["$00", "$08", "$10", "$18", "$20", "$28", "$30", "$38"],
    ),
    ("rr", &["BC", "DE", "HL", "SP"]),
    ("qq", &["BC", "DE", "HL", "AF"]),
];

/// The rows' syntax with register, condition and bit-number families folded into the
/// manual's class names: `LD r,r`, `JP cc,nn`, `BIT b,(HL)`. A family is folded only where
/// every member is accepted.
pub(crate) fn accepted_forms(rows: &[&Instr]) -> Vec<String> {
    let mut forms: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| {
            let ops = if r.operands.is_empty() {
                Vec::new()
            } else {
                r.operands.split(',').map(str::to_string).collect()
            };
            (r.mnemonic.to_string(), ops)
        })
        .collect();
    forms.dedup();
    for &(class, members) in CLASSES {
        let positions = forms.iter().map(|f| f.1.len()).max().unwrap_or(0);
        for p in 0..positions {
            let mut i = 0;
            while i < forms.len() {
                let form = forms[i].clone();
                if form.1.len() <= p || !members.contains(&form.1[p].as_str()) {
                    i += 1;
                    continue;
                }
                let same_except_p = |f: &(String, Vec<String>)| {
                    f.0 == form.0
                        && f.1.len() == form.1.len()
                        && f.1
                            .iter()
                            .zip(&form.1)
                            .enumerate()
                            .all(|(k, (a, b))| k == p || a == b)
                };
                let family: Vec<usize> = (0..forms.len())
                    .filter(|&k| {
                        same_except_p(&forms[k]) && members.contains(&forms[k].1[p].as_str())
                    })
                    .collect();
                let covered = members
                    .iter()
                    .all(|m| family.iter().any(|&k| forms[k].1[p] == *m));
                if covered {
                    let mut folded = form.clone();
                    folded.1[p] = class.to_string();
                    for &k in family.iter().rev() {
                        forms.remove(k);
                    }
                    forms.insert(i.min(forms.len()), folded);
                }
                i += 1;
            }
        }
    }
    let mut out: Vec<String> = forms
        .into_iter()
        .map(|(m, ops)| {
            if ops.is_empty() {
                m
            } else {
                format!("{m} {}", ops.join(","))
            }
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    out.retain(|f| seen.insert(f.clone()));
    out
}

/// The accepted forms as one note, cut after a dozen.
pub(crate) fn forms_note(rows: &[&Instr]) -> String {
    let forms = accepted_forms(rows);
    const MAX: usize = 12;
    if forms.len() > MAX {
        format!(
            "accepted forms: {}, ... ({} more)",
            forms[..MAX].join(", "),
            forms.len() - MAX
        )
    } else {
        format!("accepted forms: {}", forms.join(", "))
    }
}

/// Edit distance, case-insensitive.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_ascii_uppercase().chars().collect();
    let b: Vec<char> = b.to_ascii_uppercase().chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = if name.chars().count() <= 3 { 1 } else { 2 };
    candidates
        .into_iter()
        .map(|c| (distance(name, c), c))
        .filter(|&(d, c)| d <= limit && d < c.len())
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cpu;
    use crate::isa::forms;

    #[test]
    fn families_fold_into_class_names() {
        let ld = forms(Cpu::Z80, "LD");
        let folded = accepted_forms(&ld);
        assert!(folded.contains(&"LD r,r".to_string()), "{folded:?}");
        assert!(folded.contains(&"LD r,n".to_string()), "{folded:?}");
        assert!(folded.contains(&"LD A,(BC)".to_string()), "{folded:?}");
        assert!(folded.contains(&"LD rr,nn".to_string()), "{folded:?}");
        assert_eq!(accepted_forms(&forms(Cpu::Z80, "JR")), ["JR e", "JR cc,e"]);
        assert_eq!(accepted_forms(&forms(Cpu::Z80, "RST")), ["RST p"]);
        let mut bit = accepted_forms(&forms(Cpu::Z80, "BIT"));
        bit.sort();
        assert_eq!(
            bit,
            ["BIT b,(HL)", "BIT b,(IX+d)", "BIT b,(IY+d)", "BIT b,r"]
        );
        assert_eq!(
            accepted_forms(&forms(Cpu::Mos6502, "JMP")),
            ["JMP abs", "JMP (abs)"]
        );
    }

    #[test]
    fn closest_names() {
        assert_eq!(closest("LDAA", ["LDA", "LDX", "STA"]), Some("LDA"));
        assert_eq!(closest("xyzzy", ["LDA", "LDX"]), None);
        assert_eq!(closest("DJNX", ["DJNZ", "JR"]), Some("DJNZ"));
    }
}
