import Foundation
import Testing

extension EndToEndTests {
    /// `vidrec list` / `album` and `vidrec show`: the album as something to browse, read
    /// from the files' own headers and tags (which other tools see too).
    @Suite struct AlbumEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--max", "1", "--save"]

        @Test func listShowsEveryItemNewestFirstWithWhatMadeIt() throws {
            let home = try Home()
            let handmade = try Self.makeTwoSavedAndOneHandmadeMovie(home)
            let before = try FileManager.default.attributesOfItem(atPath: handmade)
            let listed = try Self.expectTheListedRows(home)
            // The table marks what vidrec did not save; listing touched nothing.
            let table = try VidrecProcess.run(["list"], home: home.path)
            #expect(table.out.split(separator: "\n").first?.hasPrefix("NAME") == true, "\(table.out)")
            #expect(table.out.contains("\n*handmade.mp4 "), "\(table.out)")
            #expect(table.out.hasSuffix("* not saved by vidrec\n"))
            let after = try FileManager.default.attributesOfItem(atPath: handmade)
            #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
            #expect(after[.size] as? Int == before[.size] as? Int)

            // The tags are in the movie, for other tools too.
            let format = try #require(try Probe.json(["-show_format", home.album + "/first.mp4"])["format"] as? [String: Any])
            let tags = try #require(format["tags"] as? [String: String])
            #expect(tags["com.vidrec.preset"] == "low")
            #expect(tags["com.vidrec.camera"] == "test pattern")
            #expect(tags["title"] == "first")
            #expect(tags["creation_time"]?.hasPrefix("20") == true)

            try Self.expectTheContactSheet(home, listed: listed)
            let shown = try VidrecProcess.run(["show", "first"], home: home.path)
            #expect(shown.code == 0, "\(shown.err)")
            #expect(shown.out.contains("\nresolution             640x360\n"), "\(shown.out)")
            #expect(shown.out.contains("\ncom.vidrec.microphone  test tone (1 kHz)\n"), "\(shown.out)")
            let missing = try VidrecProcess.run(["show", "frist"], home: home.path)
            #expect(missing.code == 66)
            #expect(missing.err.hasPrefix("Error: nothing called 'frist' in the albums \(home.album) and \(home.photos); did you mean 'first'?"), "\(missing.err)")
        }

        /// Saves two movies (low and medium) and puts in a hand-made one, older than both,
        /// beside a hidden folder and a text file; returns the hand-made movie's path.
        static func makeTwoSavedAndOneHandmadeMovie(_ home: Home) throws -> String {
            #expect(try VidrecProcess.run(["list"], home: home.path).out.contains("are empty"))
            let first = try VidrecProcess.run(Self.start + ["--quality", "low", "--as", "first"], home: home.path)
            #expect(first.code == 0, "\(first.err)")
            let second = try VidrecProcess.run(Self.start + ["--quality", "medium", "--as", "second"], home: home.path)
            #expect(second.code == 0, "\(second.err)")
            // A movie copied in by hand, older than both; a hidden folder and a text file
            // that are not listed.
            let handmade = home.album + "/handmade.mp4"
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=10", "-t", "2", handmade])
            let old = Date(timeIntervalSince1970: 1_600_000_000)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: handmade)
            try FileManager.default.createDirectory(atPath: home.album + "/.thumbnails", withIntermediateDirectories: true)
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", home.album + "/.thumbnails/x.jpg"])
            try "notes".write(toFile: home.album + "/notes.txt", atomically: true, encoding: .utf8)

            return handmade
        }

        /// `album --json` lists the three newest first with what made them, and each
        /// saved movie has its poster frame; returns the listing.
        static func expectTheListedRows(_ home: Home) throws -> String {
            let listed = try VidrecProcess.run(["album", "--json"], home: home.path)
            #expect(listed.code == 0, "\(listed.err)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
            #expect(rows.map { $0["name"] as? String } == ["second.mp4", "first.mp4", "handmade.mp4"])
            #expect(rows.map { $0["madeByVidrec"] as? Bool } == [true, true, false])
            #expect(rows.map { $0["preset"] as? String } == ["medium", "low", nil])
            #expect(rows.map { $0["camera"] as? String } == ["test pattern", "test pattern", nil])
            #expect(rows.map { $0["width"] as? Int } == [1280, 640, 320])
            #expect(rows.map { $0["height"] as? Int } == [720, 360, 240])
            #expect(rows.map { $0["title"] as? String } == ["second", "first", nil])
            let durations = rows.compactMap { $0["duration"] as? Double }
            #expect(durations.count == 3 && abs(durations[0] - 1) < 0.05 && abs(durations[1] - 1) < 0.05 && abs(durations[2] - 2) < 0.05,
                    "\(durations)")
            #expect(rows[2]["date"] as? String == "2020-09-13T12:26:40Z", "a file without tags is dated by its modification time")

            // A poster frame for each saved movie, a second in, 320 pixels wide.
            #expect(rows.map { $0["thumbnail"] as? String } == [home.album + "/.thumbnails/second.mp4.jpg",
                                                                home.album + "/.thumbnails/first.mp4.jpg", nil])
            for (name, height) in [("first", 180), ("second", 180)] {
                let thumbnail = try #require(try Probe.streams(home.album + "/.thumbnails/\(name).mp4.jpg").first)
                #expect(thumbnail.codec == "mjpeg" && thumbnail.width == 320 && thumbnail.height == height)
            }
            return listed.out
        }

        /// The contact sheet: one tile per item, newest first, each labelled.
        static func expectTheContactSheet(_ home: Home, listed: String) throws {
            let sheet = try VidrecProcess.run(["sheet"], home: home.path)
            #expect(sheet.code == 0, "\(sheet.err)")
            let sheetPath = home.album + "/.thumbnails/contact-sheet.jpg"
            #expect(sheet.out == sheetPath + "\n")
            let sheetStream = try #require(try Probe.streams(sheetPath).first)
            #expect(sheetStream.codec == "mjpeg" && sheetStream.width == 960 && sheetStream.height == 204)
            let pixels = try Probe.rgbFrame(sheetPath, width: 960, height: 204)
            func tile(_ index: Int, x: Int, y: Int, w: Int, h: Int) -> [UInt8] {
                var out: [UInt8] = []
                for row in y..<(y + h) {
                    let start = (row * 960 + index * 320 + x) * 3
                    out += pixels[start..<(start + w * 3)]
                }
                return out
            }
            for (index, name) in [(0, "second"), (1, "first")] {
                let poster = try Probe.rgbFrame(home.album + "/.thumbnails/\(name).mp4.jpg", width: 320, height: 180)
                let drawn = tile(index, x: 0, y: 0, w: 320, h: 180)
                let difference = Double(zip(poster, drawn).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(poster.count)
                #expect(difference < 12, "tile \(index) shows \(name)'s poster frame: \(difference)")
            }
            // The hand-made 4:3 movie is fitted, with black bars beside it.
            #expect(tile(2, x: 0, y: 0, w: 30, h: 180).allSatisfy { $0 < 40 })
            #expect(!tile(2, x: 40, y: 0, w: 240, h: 180).allSatisfy { $0 < 40 })
            for index in 0..<3 {
                #expect(tile(index, x: 0, y: 182, w: 200, h: 20).contains { $0 > 200 }, "tile \(index) has its label")
            }
            #expect(try VidrecProcess.run(["list", "--json"], home: home.path).out == listed, "the sheet is not an album item")
        }

        /// A poster frame that cannot be made costs the thumbnail, never the save.
        @Test func aPosterFrameThatCannotBeWrittenIsReportedAndTheMovieIsSaved() throws {
            let home = try Home()
            try FileManager.default.createDirectory(atPath: home.album, withIntermediateDirectories: true)
            try "in the way".write(toFile: home.album + "/.thumbnails", atomically: true, encoding: .utf8)
            let result = try VidrecProcess.run(Self.start + ["--quality", "low", "--as", "clip"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.out == home.album + "/clip.mp4\n")
            #expect(result.err.contains("vidrec: no poster frame for \(home.album)/clip.mp4 ("), "\(result.err)")
            #expect(result.err.contains("); the movie is saved\n"), "\(result.err)")
            #expect(try Probe.decodedFrameCount(home.album + "/clip.mp4") == 15)
        }
    }
}
