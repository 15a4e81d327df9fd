#[path = "common/weighted_map.rs"]
mod weighted_map;
use gridpath::search::*;
#[test]
fn diag() {
    let side = 256;
    let grid = weighted_map::weighted_map(side, 0x7e11_a000 + u64::from(side));
    let pairs = weighted_map::query_pairs(&grid, 0x9e3_7790 + u64::from(side), 400);
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let mut hpa = HpaGraph::from_graph(graph.clone(), DEFAULT_CLUSTER_SIZE);
    hpa.set_refinement(Refinement::Corridor);
    let mut s = Searcher::new();
    let mut v = vec![];
    for &(a, b) in &pairs {
        let o = s.search(&graph, &SearchRequest::new(a, b)).unwrap();
        let h = hpa
            .find_path(&SearchRequest::new(a, b).with_algorithm(Algorithm::Hpa))
            .unwrap();
        if o.found {
            v.push((h.cost / o.cost, a, b, o.cost, h.cost));
        }
    }
    v.sort_by(|x, y| y.0.total_cmp(&x.0));
    for x in &v[..10] {
        println!("{:?}", x);
    }
}
