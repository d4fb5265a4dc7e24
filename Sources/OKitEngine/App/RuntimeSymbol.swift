#if canImport(Glibc)
import Glibc
#endif

/// A C function of the C library looked up by name when first needed: for glibc's own calls that Swift's Glibc
/// module does not declare (`malloc_trim`, the GNU `sync_file_range`); nil where the library has none.
enum RuntimeSymbol {
    static func lookup<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
        #else
        return nil
        #endif
    }
}
