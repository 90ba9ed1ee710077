import CFFmpeg
import Glibc
import VidrecMedia
import VidrecSystem

/// The file a movie is written to, as a custom `AVIOContext` over a file descriptor
/// that vidrec owns.
///
/// Owning the descriptor lets vidrec count bytes exactly (for the size limit), `fsync`
/// on its own cadence (for power-loss safety), and report the real `errno` of a failed
/// write (ENOSPC, EIO) instead of a bare AVERROR.
final class FileOutputIO {
    /// The file's path, for messages.
    let path: String
    /// The `AVIOContext` to hand to libavformat; owned here.
    private(set) var context: UnsafeMutablePointer<AVIOContext>
    /// The file's size: the highest offset written, the reserved front included.
    var size: Int64 { front + written }
    /// The first write error, if any; later writes fail with the same error.
    private(set) var writeError: SystemError?

    private let fd: FileDescriptor
    /// Bytes at the front that libavformat does not see (``init(creating:reserving:)``).
    private let front: Int64
    /// Positions as libavformat sees them: from the end of the reserved front.
    private var position: Int64 = 0
    private var written: Int64 = 0
    private static let bufferSize: Int32 = 1 << 16

    /// Creates `path`, which must not exist, with mode 0600.
    ///
    /// - Parameter reserved: bytes to write at the front before anything libavformat
    ///   writes (the `free` box that keeps room for the movie's index); libavformat's
    ///   offsets start after them.
    /// - Throws: ``SystemError`` from `open` or `write`.
    init(creating path: String, reserving reserved: [UInt8] = []) throws {
        self.path = path
        let fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL)
        self.fd = fd
        front = Int64(reserved.count)
        if !reserved.isEmpty {
            do {
                try reserved.withUnsafeBytes { try fd.writeAll($0.baseAddress!, count: $0.count, at: 0, path) }
            } catch {
                fd.close()
                throw error
            }
        }
        guard let buffer = av_malloc(Int(FileOutputIO.bufferSize)) else {
            fd.close()
            throw FFmpegError("av_malloc", path, code: cffmpeg_averror(ENOMEM))
        }
        guard let context = cffmpeg_avio_alloc_write_context(
            buffer.assumingMemoryBound(to: UInt8.self), FileOutputIO.bufferSize, nil,
            FileOutputIO.writePacket, FileOutputIO.seek)
        else {
            av_free(buffer)
            fd.close()
            throw FFmpegError("avio_alloc_context", path, code: cffmpeg_averror(ENOMEM))
        }
        self.context = context
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Pushes buffered bytes to the kernel and, with `durable`, to the disk.
    ///
    /// The corresponding C functions are `avio_flush` and `fsync`.
    func flush(durable: Bool) throws {
        avio_flush(context)
        if let writeError { throw writeError }
        if durable {
            try fd.sync(path)
        }
    }

    deinit {
        // The buffer may have been replaced by libavformat; free the current one.
        av_freep(&context.pointee.buffer)
        var ctx: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&ctx)
        fd.close()
    }

    private static let writePacket: cffmpeg_avio_write_callback = {
        opaque, bytes, count in
        let io = Unmanaged<FileOutputIO>.fromOpaque(opaque!).takeUnretainedValue()
        return io.write(UnsafeRawPointer(bytes!), Int(count))
    }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
        opaque, offset, whence in
        let io = Unmanaged<FileOutputIO>.fromOpaque(opaque!).takeUnretainedValue()
        return io.seek(offset, whence)
    }

    private func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Int32 {
        if let writeError { return cffmpeg_averror(writeError.errno) }
        do {
            try fd.writeAll(bytes, count: count, at: front + position, path)
        } catch {
            writeError = error
            return cffmpeg_averror(error.errno)
        }
        position += Int64(count)
        written = max(written, position)
        return Int32(count)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        switch whence & ~AVSEEK_FORCE {
        case AVSEEK_SIZE: return written
        case SEEK_SET: position = offset
        case SEEK_CUR: position += offset
        case SEEK_END: position = written + offset
        default: return Int64(cffmpeg_averror(EINVAL))
        }
        return position
    }
}
