fn main() {
    for p in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&p).unwrap();
        for r in referee::record::parse(&src) {
            println!(
                "{p} #{} span {:?} title {:?} header {:?} startup {:?} final {:?} lines {} tokens {} errors {:?}",
                r.index,
                r.span,
                r.title,
                r.header.as_ref().map(|h| h.sides),
                r.startup.as_ref().map(|d| d.geometry),
                r.final_position.as_ref().map(|d| (d.geometry, d.label)),
                r.lines.len(),
                r.tokens().count(),
                r.syntax_errors
            );
            for t in r.tokens().filter(|t| t.kind.is_claim()) {
                println!("   claim {:?}", t);
            }
        }
    }
}
