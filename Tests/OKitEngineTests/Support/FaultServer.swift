import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Loopback sockets for the test servers.
enum Loopback {
    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, released).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = address(port: 0)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else { throw TestServerError("bind: \(String(cString: strerror(errno)))") }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return UInt16(bigEndian: addr.sin_port)
    }

    static func address(port: UInt16) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return addr
    }

    /// A connected socket to 127.0.0.1:port, or -1.
    static func connect(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var addr = address(port: port)
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if rc != 0 { close(fd); return -1 }
        return fd
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { if n < 0, errno == EINTR { continue }; return }
            offset += n
        }
    }

    /// Sets a receive timeout, so a peer that stops sending never blocks a server thread for long.
    static func setReceiveTimeout(_ fd: Int32, seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }
}

struct TestServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A tiny loopback HTTP server that misbehaves on purpose, in front of an optional upstream (nginx).
///
/// In `.pass` mode it forwards each request to the upstream and relays the answer, so a test sees the real
/// server; the other modes answer instead (the upstream never sees the request, so its copy is unchanged):
/// a fixed status, `.slow` (reads the request and never answers), `.truncated` (announces 1000 bytes, sends 10
/// and closes). Every request's method, path and headers are recorded. Stopped when released.
final class FaultServer {
    enum Mode: Sendable, Equatable {
        case pass
        case status(Int)
        case slow
        case truncated
        /// Reads pass to the upstream; writes (PUT, DELETE) are answered with this status.
        case writesFail(Int)
        /// `302 Found` with `Location:` this URL.
        case redirect(String)
        /// `200 OK` without a length, then zeros until the client goes away (at most `bytes`).
        case endless(bytes: Int)
    }

    struct Request: Sendable {
        let method: String
        let path: String
        /// Header names lower-cased.
        let headers: [String: String]
        let body: [UInt8]
    }

    private let core: Core
    var port: UInt16 { core.port }

    /// Listens on a free loopback port; forwards to `upstream` in `.pass` mode.
    init(mode: Mode = .pass, upstream: UInt16? = nil) throws {
        core = try Core(mode: mode, upstream: upstream)
        let core = core
        Thread { core.serve() }.start()
    }

    deinit { core.stop() }

    /// The endpoint `http://127.0.0.1:<port>/okit`.
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/okit")! }

    var mode: Mode {
        get { core.state.withLock { $0.mode } }
        set { core.state.withLock { $0.mode = newValue } }
    }

    /// The requests received so far, in order.
    var requests: [Request] { core.state.withLock { $0.requests } }

    func stop() { core.stop() }

    /// The server's socket and state, shared with its thread (a mutex guards what both touch).
    private final class Core: Sendable {
        struct State {
            var mode: Mode
            var requests: [Request] = []
            var held: [Int32] = []
            var stopped = false
        }

        let port: UInt16
        let upstream: UInt16?
        let listener: Int32
        let state: Mutex<State>
        let finished = DispatchSemaphore(value: 0)

        init(mode: Mode, upstream: UInt16?) throws {
            self.upstream = upstream
            state = Mutex(State(mode: mode))
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw TestServerError("socket: \(String(cString: strerror(errno)))") }
            var addr = Loopback.address(port: 0)
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &len) == 0 }
            }
            guard ok else { close(fd); throw TestServerError("fault server: \(String(cString: strerror(errno)))") }
            listener = fd
            port = UInt16(bigEndian: addr.sin_port)
        }

        /// Stops accepting, waits for the server thread and closes the connections `.slow` held.
        func stop() {
            let first = state.withLock { s -> Bool in
                defer { s.stopped = true }
                return !s.stopped
            }
            guard first else { return }
            _ = finished.wait(timeout: .now() + 5)
            close(listener)
            for fd in state.withLock({ s -> [Int32] in defer { s.held = [] }; return s.held }) { close(fd) }
        }

        func serve() {
            defer { finished.signal() }
            while !state.withLock({ $0.stopped }) {
                var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { continue }
                let client = accept(listener, nil, nil)
                guard client >= 0 else { continue }
                handle(client)
            }
        }

        private func handle(_ fd: Int32) {
            Loopback.setReceiveTimeout(fd, seconds: 3)
            guard let read = FaultServer.readRequest(fd) else { close(fd); return }
            let mode = state.withLock { s -> Mode in
                s.requests.append(read.request)
                return s.mode
            }
            switch mode {
            case .writesFail(let status) where read.request.method == "PUT" || read.request.method == "DELETE":
                respond(fd, status, "fault \(status)\n")
            case .pass, .writesFail:
                guard let upstream else { respond(fd, 502, "no upstream"); return }
                let answer = FaultServer.forward(head: read.head, body: read.body, to: upstream)
                Loopback.sendAll(fd, answer.isEmpty ? FaultServer.response(502, "upstream did not answer") : answer)
                close(fd)
            case .status(let status):
                respond(fd, status, "fault \(status)\n")
            case .slow:
                state.withLock { $0.held.append(fd) }   // never answered; closed by stop()
            case .redirect(let location):
                Loopback.sendAll(fd, Array("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                close(fd)
            case .endless(let bytes):
                Loopback.sendAll(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n".utf8))
                let zeros = [UInt8](repeating: 0x20, count: 1 << 16)
                var sent = 0
                while sent < bytes, !state.withLock({ $0.stopped }) {
                    let n = zeros.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { if n < 0, errno == EINTR { continue }; break }
                    sent += n
                }
                close(fd)
            case .truncated:
                let cut = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nETag: \"cut\"\r\nConnection: close\r\n\r\n{\"okit\":{\""
                Loopback.sendAll(fd, Array(cut.utf8))
                close(fd)
            }
        }

        private func respond(_ fd: Int32, _ status: Int, _ text: String) {
            Loopback.sendAll(fd, FaultServer.response(status, text))
            close(fd)
        }
    }

    static func response(_ status: Int, _ text: String) -> [UInt8] {
        Array("HTTP/1.1 \(status) Fault\r\nContent-Type: text/plain\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)".utf8)
    }

    /// Reads one request: its head (up to the blank line), its body (per Content-Length) and what it says.
    static func readRequest(_ fd: Int32) -> (head: String, body: [UInt8], request: Request)? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            data += buffer[0..<n]
            if data.count >= 4 {
                for i in 0...(data.count - 4) where data[i..<(i + 4)].elementsEqual(separator) { headEnd = i; break }
            }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: data[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(data[(headEnd + 4)...])
        let length = Int(headers["content-length"] ?? "") ?? 0
        if headers["expect"]?.lowercased() == "100-continue", body.count < length {
            Loopback.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < length {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, length - body.count), 0) }
            if n <= 0 { return nil }
            body += buffer[0..<n]
        }
        let request = Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
        return (head, body, request)
    }

    /// Sends the request to the upstream with `Connection: close` and returns its whole answer.
    static func forward(head: String, body: [UInt8], to port: UInt16) -> [UInt8] {
        let fd = Loopback.connect(port: port)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        Loopback.setReceiveTimeout(fd, seconds: 5)
        let kept = head.components(separatedBy: "\r\n").filter {
            let name = $0.split(separator: ":").first?.lowercased() ?? ""
            return name != "connection" && name != "keep-alive" && name != "expect"
        }
        Loopback.sendAll(fd, Array((kept.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n").utf8) + body)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        return answer
    }
}
