import Foundation
import Testing

extension EndToEndTests {
    /// `vidrec snap`: still photos, pending like recordings, saved to the photo album,
    /// and taken from a running recording without costing it a frame.
    @Suite struct PhotoEndToEndTests {
        @Test func snapTakesTheCamerasLargestPictureAfterItSettlesAndSavesItToThePhotoAlbum() throws {
            let home = try Home()
            let taken = try VidrecProcess.run(["snap", "--camera", "test"], home: home.path)
            #expect(taken.code == 0, "\(taken.err)")
            #expect(taken.out.isEmpty, "nothing on stdout until saved: \(taken.out)")
            #expect(taken.err.contains(": 1920x1080 from test pattern\n"), "\(taken.err)")
            let rows = try home.pendingRows()
            #expect(rows.map { $0["kind"] as? String } == ["photo"])
            let pendingFile = try #require(rows.first?["file"] as? String)
            #expect(pendingFile.hasSuffix(".jpg") && !pendingFile.contains(".partial."), "\(pendingFile)")

            let photo = try #require(try Probe.streams(pendingFile).first)
            #expect(photo.codec == "mjpeg" && photo.width == 1920 && photo.height == 1080)
            // The test camera numbers its frames: the first few were let go while the
            // camera settled.
            let number = Probe.frameNumber(grey: try Probe.greyFrame(pendingFile, index: 0), width: 1920, height: 1080)
            #expect(number >= 5 && number < 60, "frame \(number)")

            let saved = try VidrecProcess.run(["save", "--as", "bench"], home: home.path)
            #expect(saved.code == 0, "\(saved.err)")
            #expect(saved.out == home.photos + "/bench.jpg\n")
            #expect(try home.pendingRows().isEmpty)
            let thumbnail = try #require(try Probe.streams(home.photos + "/.thumbnails/bench.jpg.jpg").first)
            #expect(thumbnail.width == 320 && thumbnail.height == 180)
        }

        @Test func snapAtAGivenSizeWithSaveListsPhotosBesideMovies() throws {
            let home = try Home()
            let movie = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "1", "--save", "--as", "clip"], home: home.path)
            #expect(movie.code == 0, "\(movie.err)")
            let snap = try VidrecProcess.run(["snap", "--camera", "test", "--size", "640x480", "--save", "--as", "still"], home: home.path)
            #expect(snap.code == 0, "\(snap.err)")
            #expect(snap.out == home.photos + "/still.jpg\n")
            let photo = try #require(try Probe.streams(home.photos + "/still.jpg").first)
            #expect(photo.width == 640 && photo.height == 480)

            let listed = try VidrecProcess.run(["list", "--json"], home: home.path)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
            #expect(Set(rows.map { "\($0["kind"] ?? "") \($0["name"] ?? "")" }) == ["photo still.jpg", "video clip.mp4"], "\(rows)")
            #expect(rows.first { $0["kind"] as? String == "photo" }?["madeByVidrec"] as? Bool == true)
            let table = try VidrecProcess.run(["list"], home: home.path)
            #expect(table.out.contains("\nstill.jpg ") && table.out.contains("\nclip.mp4 "), "\(table.out)")
            #expect(try VidrecProcess.run(["show", "still"], home: home.path).code == 0)
        }

        @Test func snapDuringARecordingTakesThePhotoFromItAndTheRecordingLosesNoFrame() throws {
            let home = try Home()
            let recording = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "6"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            var photos: [String] = []
            for (index, size) in [nil, "320x240"].enumerated() {
                let snap = try VidrecProcess.run(["snap", "--camera", "test", "--save", "--as", "during-\(index)"] + (size.map { ["--size", $0] } ?? []),
                                                 home: home.path)
                #expect(snap.code == 0, "\(snap.err)")
                #expect(snap.err.contains(", taken from recording "), "\(snap.err)")
                photos.append(snap.out.trimmingCharacters(in: .newlines))
            }
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(!ended.err.contains("dropped"), "\(ended.err)")
            #expect(ended.err.contains("6.000 s, 90 frames"), "\(ended.err)")
            let movie = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.decodedFrameCount(movie) == 90)

            // The recording's own picture: the preset's size, or narrower when asked.
            let full = try #require(try Probe.streams(photos[0]).first)
            #expect(full.codec == "mjpeg" && full.width == 640 && full.height == 360)
            let small = try #require(try Probe.streams(photos[1]).first)
            #expect(small.width == 320 && small.height == 180)
            // Once the recording has ended, the camera is free again and snap opens it.
            let after = try VidrecProcess.run(["snap", "--camera", "test"], home: home.path)
            #expect(after.code == 0 && !after.err.contains("taken from recording"), "\(after.err)")
        }

        @Test func snapEveryTakesAPhotoEachIntervalAndSavesThemBesideTheMovie() throws {
            let home = try Home()
            let recorded = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "4",
                                                  "--snap-every", "1s", "--save", "--as", "clip"], home: home.path)
            #expect(recorded.code == 0, "\(recorded.err)")
            #expect(recorded.err.contains("vidrec: 4 photos taken every 1 s, 4 saved\n"), "\(recorded.err)")
            #expect(recorded.err.contains("4.000 s, 60 frames") && !recorded.err.contains("dropped"), "\(recorded.err)")
            // Standard output: each photo's path as it is saved, then the movie's.
            let lines = recorded.out.split(separator: "\n").map(String.init)
            #expect(lines.count == 5 && lines.last == home.album + "/clip.mp4", "\(lines)")
            let photos = Array(lines.dropLast())
            #expect(photos.allSatisfy { $0.hasPrefix(home.photos + "/vidrec-") && $0.hasSuffix(".jpg") }, "\(photos)")
            #expect(try Probe.decodedFrameCount(home.album + "/clip.mp4") == 60)
            // The camera's picture (the test camera sends the preset's size), one at each whole second of the
            // movie at 15 fps, the first once the camera has settled: the test camera's
            // frame numbers say which.
            for (photo, due) in zip(photos, [5, 15, 30, 45]) {
                let stream = try #require(try Probe.streams(photo).first)
                #expect(stream.codec == "mjpeg" && stream.width == 640 && stream.height == 360)
                let number = Probe.frameNumber(grey: try Probe.greyFrame(photo, index: 0), width: 640, height: 360)
                #expect(number >= due && number < due + 15, "\(photo): frame \(number), due at \(due)")
            }
            let listed = try VidrecProcess.run(["list", "--json"], home: home.path)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
            #expect(rows.filter { $0["kind"] as? String == "photo" }.count == 4 && rows.filter { $0["kind"] as? String == "video" }.count == 1,
                    "\(rows)")
            #expect(try home.pendingRows().isEmpty)
        }
    }
}
