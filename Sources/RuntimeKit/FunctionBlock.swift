/// A block as C passes one to libdispatch's `_f` entry points: a function and its context
/// (`dispatch_function_t`).
public typealias WorkFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

/// A block made once and submitted again and again, in both forms a runtime may take: the C
/// function and its context, which `dispatch_async_f` takes with nothing allocated or retained per
/// submission, and a Swift closure made from them here, once, which a runtime that queues closures
/// submits for the price of a retain.
///
/// A closure handed to a C entry point must be boxed on every submission, which costs more than
/// the submission itself (Benchmarks/README.md, "What the references found"), so a workload that
/// submits the same block many times builds one of these instead.
///
/// `@unchecked Sendable`: the context is the caller's; it must stay valid, and be safe to use from
/// the threads the block runs on, for as long as any submission of the block can run.
public struct FunctionBlock: @unchecked Sendable {
    public let function: WorkFunction
    public let context: UnsafeMutableRawPointer?
    /// `function(context)`, as a closure.
    public let closure: @Sendable () -> Void

    public init(context: UnsafeMutableRawPointer?, _ function: @escaping WorkFunction) {
        self.function = function
        self.context = context
        let call = Call(function: function, context: context)
        closure = { call.function(call.context) }
    }

    /// A block whose closure form the caller writes itself, doing what `function(context)` does
    /// without the C call in between: generic code can call its specialized work directly there,
    /// which a C function, formed outside generics, cannot.
    public init(
        context: UnsafeMutableRawPointer?, _ function: @escaping WorkFunction, closure: @escaping @Sendable () -> Void
    ) {
        self.function = function
        self.context = context
        self.closure = closure
    }

    private struct Call: @unchecked Sendable {
        let function: WorkFunction
        let context: UnsafeMutableRawPointer?
    }
}

/// An apply's piece as C code takes it: the context, and the piece's indices `lower..<upper`.
public typealias PieceFunction = @convention(c) (UnsafeMutableRawPointer?, Int, Int) -> Void

/// Runs `use` with a context and a `PieceFunction` that call `body` over `lower..<upper`: how a
/// loop built on C piece functions takes a closure. The context is an object holding `body`,
/// valid until `use` returns; a thread that calls the function after that calls freed memory, so
/// `use` must not return before every call has.
///
/// The function reaches the closure through the object as a guaranteed reference, so a call
/// retains and releases nothing: loading the closure out of plain memory would copy it, a retain
/// and a release of its context per piece from every thread, the count bouncing between the CPUs
/// (Sources/PThreadPrimitives/README.md, "ParallelLoop").
@inlinable
public func withPieceFunction<Result>(
    calling body: (Range<Int>) -> Void, _ use: (UnsafeMutableRawPointer, PieceFunction) -> Result
) -> Result {
    withoutActuallyEscaping(body) { escapable in
        let holder = PieceClosure(escapable)
        // The holder is released when this closure returns, before withoutActuallyEscaping
        // checks that nothing kept `escapable`.
        return withExtendedLifetime(holder) { use(Unmanaged.passUnretained(holder).toOpaque(), callPieceClosure) }
    }
}

/// `withPieceFunction`'s context: the closure, in an object a piece can borrow.
@usableFromInline
final class PieceClosure {
    @usableFromInline let body: (Range<Int>) -> Void
    @usableFromInline init(_ body: @escaping (Range<Int>) -> Void) { self.body = body }
}

/// `withPieceFunction`'s function: its context is an unretained `PieceClosure`.
@usableFromInline
let callPieceClosure: PieceFunction = { context, lower, upper in
    Unmanaged<PieceClosure>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.body(lower..<upper) }
}
