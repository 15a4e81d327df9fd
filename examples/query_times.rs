//! The engine's time per query for A* and jump point search on the queries `python/bench.py`
//! runs: `n` queries spread evenly over a Moving AI scenario file, one prepared graph, one
//! reused searcher, every answer checked against the file's optimum.
//!
//! `cargo run --release --example query_times -- ../shared/movingai/dao/den520d.map 200 10`
//! prints, per algorithm, the fastest of the rounds (a round runs every query once), the mean
//! of the searches' own `time_us` and the cells expanded per query. Set beside the Python
//! benchmark's figures, the difference is what a call from Python adds.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, bail};
use gridpath::format::movingai;
use gridpath::search::{Algorithm, Diagonal, SearchGraph, SearchRequest, Searcher};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let Some(map) = args.next().map(PathBuf::from) else {
        bail!("usage: query_times MAP.map [QUERIES] [ROUNDS] (the .map.scen beside the map)");
    };
    let wanted: usize = args.next().map_or(Ok(200), |s| s.parse())?;
    let rounds: usize = args.next().map_or(Ok(5), |s| s.parse())?;
    let mut scen = map.clone().into_os_string();
    scen.push(".scen");
    let text = std::fs::read_to_string(&map).with_context(|| format!("{}", map.display()))?;
    let grid = movingai::parse_map(&text)?;
    let all = movingai::parse_scen(&std::fs::read_to_string(&scen)?)?;
    // The same queries as the Python benchmark's `spread`.
    let queries: Vec<_> = if all.len() <= wanted {
        all
    } else {
        (0..wanted)
            .map(|i| all[i * all.len() / wanted].clone())
            .collect()
    };
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let mut searcher = Searcher::new();
    for algorithm in [Algorithm::AStar, Algorithm::Jps] {
        let (mut fastest, mut own_us, mut expanded) = (f64::INFINITY, 0, 0);
        for _ in 0..rounds.max(1) {
            let started = Instant::now();
            (own_us, expanded) = (0, 0);
            for q in &queries {
                let mut request = SearchRequest::new(q.start, q.goal);
                request.algorithm = algorithm;
                let result = searcher.search(&graph, &request)?;
                if !q.matches(result.cost) {
                    bail!(
                        "{algorithm:?} from {:?} to {:?}: cost {}",
                        q.start,
                        q.goal,
                        result.cost
                    );
                }
                own_us += result.stats.time_us;
                expanded += result.stats.expanded;
            }
            fastest = fastest.min(started.elapsed().as_secs_f64());
        }
        let n = queries.len().max(1);
        println!(
            "{}: {:.1} µs per query (fastest of {rounds} rounds), searches' own time {:.1} µs, {} cells expanded per query",
            algorithm.name(),
            fastest * 1e6 / n as f64,
            own_us as f64 / n as f64,
            expanded / n as u64,
        );
    }
    Ok(())
}
