use kempelen_engine::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = args.get(3).cloned().unwrap_or(START_FEN.to_string());
    let depth: u32 = args[2].parse().unwrap();
    let game = Game::from_fen(&fen).unwrap();
    let mut e = NativeEngine::new(args[1].parse().unwrap());
    let c = SearchControl::with_info(|i| {
        println!(
            "depth {} score {} nodes {} time {:?} pv {:?}",
            i.depth, i.score, i.nodes, i.time, i.pv
        )
    });
    let r = e.search(&game, &Limits::depth(depth), &c).unwrap();
    println!("{:?}", r);
}
