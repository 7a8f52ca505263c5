import Results

/// What every output format reads, arranged once per write from a run's analysis: each case with
/// its estimates, the families and their parameter sets, the stride figures, and the charts. A
/// format of another package reads `run` and `analysis` (every case's estimate, the claims'
/// verdicts); the arrangements are this module's.
public struct ReportInput {
    public let analysis: RunAnalysis
    let cases: [MeasuredCase]
    let families: [Family]
    let strides: StrideFigures
    let charts: [ReportChart]
    /// Every counter and figure as a column of the family tables, not only those that differ most
    /// (`bench report --all-columns`).
    public let allColumns: Bool

    public var run: RunResults { analysis.run }

    init(_ analysis: RunAnalysis, allColumns: Bool = false) {
        self.analysis = analysis
        self.allColumns = allColumns
        cases = MeasuredCase.all(analysis.run, estimates: analysis.estimates)
        families = Family.arrange(cases)
        strides = StrideFigures(cases)
        charts = ReportChart.all(
            families: families, strides: strides, cases: cases, cpus: analysis.run.environment.cpusAtOnce)
    }
}
