extension Duration {
    /// In seconds, as a fraction (for rates and budgets, not for timing a measurement).
    public var inSeconds: Double { Double(nanosecondsSaturating) / 1e9 }

    /// Whole nanoseconds, clamped to `0...Int64.max`: a negative timeout means "now" and a huge
    /// one means "forever", as in libdispatch's time arithmetic, never an overflow trap.
    public var nanosecondsSaturating: Int64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let product = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if product.overflow { return Int64.max }
        let sum = product.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sum.overflow ? Int64.max : max(0, sum.partialValue)
    }
}
