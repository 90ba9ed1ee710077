import CFFmpeg
import Glibc
import VidrecMedia

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
    /// The file's size: the highest offset written.
    private(set) var size: Int64 = 0
    /// The first write error, if any; later writes fail with the same error.
    private(set) var writeError: SystemError?

    private let fd: FileDescriptor
    private var position: Int64 = 0
    private static let bufferSize: Int32 = 1 << 16

    /// Creates `path`, which must not exist, with mode 0600.
    ///
    /// - Throws: ``SystemError`` from `open`.
    init(creating path: String) throws {
        self.path = path
        fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL)
        guard let buffer = av_malloc(Int(FileOutputIO.bufferSize)) else {
            fd.close()
            throw FFmpegError("av_malloc", path, code: cffmpeg_averror(ENOMEM))
        }
        guard let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), FileOutputIO.bufferSize, 1, nil,
            nil, FileOutputIO.writePacket, FileOutputIO.seek)
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

    private static let writePacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
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
            try fd.writeAll(bytes, count: count, at: position, path)
        } catch {
            writeError = error
            return cffmpeg_averror(error.errno)
        }
        position += Int64(count)
        size = max(size, position)
        return Int32(count)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        switch whence & ~AVSEEK_FORCE {
        case AVSEEK_SIZE: return size
        case SEEK_SET: position = offset
        case SEEK_CUR: position += offset
        case SEEK_END: position = size + offset
        default: return Int64(cffmpeg_averror(EINVAL))
        }
        return position
    }
}
