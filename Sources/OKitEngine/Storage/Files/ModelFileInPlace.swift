#if canImport(Glibc)
import Glibc
#endif

/// A model file opened for the exit patch (`FileStorage.patchAtExit`): read through a shared, read-only mapping
/// to find the entities' objects, then written in place with `pwrite` once the mapping is gone.
///
/// Only a regular file is opened (not through a symbolic link: a full write would replace the link, a patch would
/// change what it points to, so a link gets the full write).
final class ModelFileInPlace {
    let path: String
    private let fd: Int32
    let size: Int
    let device: UInt64
    let inode: UInt64
    private var mapping: UnsafeMutableRawPointer?
    /// The start of the mapping given back so far (`releasePages(below:)`); pages read again after it are
    /// mapped again, and given back by the next call that reaches them only.
    private var released = 0

    /// Opens the file for reading and writing; nil when it is missing, a link or anything but a regular file.
    init?(path: String) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        self.fd = fd
        size = Int(st.st_size)
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    deinit {
        unmap()
        close(fd)
    }

    /// The whole file, mapped shared and read-only (the page cache's own pages: nothing is copied), or nil when
    /// the system refuses. Valid until `unmap`. Pages are mapped as they are read (not populated at once: the
    /// search gives them back behind it, `releasePages`).
    func mapped() -> UnsafeBufferPointer<UInt8>? {
        if mapping == nil, size > 0 {
            guard let p = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), p != MAP_FAILED else { return nil }
            mapping = p
        }
        guard let mapping else { return nil }
        return UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// Gives back the mapped pages wholly below `offset`: they leave this process's resident memory (a page read
    /// again is mapped again from the page cache, with the same bytes: the mapping is shared, read-only, and the
    /// file is not written while it exists).
    func releasePages(below offset: Int) {
        guard let mapping else { return }
        released = MappedPages.release(mapping, size: size, from: released, below: offset)
    }

    /// Gives the mapping back: no pointer from `mapped()` is used after this.
    func unmap() {
        if let mapping { munmap(mapping, size) }
        mapping = nil
        released = 0
    }

    /// The CRC-32 of the file's first `count` bytes (read, not mapped).
    func prefixCRC(_ count: Int) throws -> UInt32 {
        var buf = [UInt8](repeating: 0, count: count)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        if n != count { throw AtomicFile.error(path, "cannot read") }
        return CRC32.checksum(buf)
    }

    /// Writes `bytes` at `offset` with one `pwrite` when it can (within one page a `pwrite` is never torn by a
    /// killed process: the kernel copies it into the page cache whole).
    func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicFile.error(path, "cannot write")
            }
            done += n
        }
    }

    /// Syncs the file's data to the disk.
    func sync() throws {
        if fsync(fd) != 0 { throw AtomicFile.error(path, "cannot sync") }
    }

    /// Whether this is the file an intent was made for.
    func matches(_ intent: ExitPatchIntent) -> Bool {
        guard size == intent.size, device == intent.device, inode == intent.inode,
              intent.prefixLength > 0, intent.prefixLength <= size else { return false }
        return (try? prefixCRC(intent.prefixLength)) == intent.prefixCRC
    }
}
