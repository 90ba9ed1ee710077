import CALSA
import Glibc
import VidrecMedia
import VidrecSystem

/// Finds microphones: every ALSA card's capture devices.
public struct MicrophoneDiscovery: Sendable {
    /// Creates a discovery.
    public init() { calsa_silence_errors() }

    /// Capture devices in card and device order. The corresponding C functions are
    /// `snd_card_next`, `snd_ctl_pcm_next_device` and `snd_ctl_pcm_info`.
    public func microphones() -> [MicrophoneDescription] {
        var result: [MicrophoneDescription] = []
        var card: Int32 = -1
        while systemCallNegativeErrno(.cardNext, { snd_card_next(&card) }) == 0 && card >= 0 {
            var ctl: OpaquePointer?
            guard systemCallNegativeErrno(.controlOpen, { snd_ctl_open(&ctl, "hw:\(card)", 0) }) == 0 else { continue }
            defer { snd_ctl_close(ctl) }
            var cardInfo: OpaquePointer?
            snd_ctl_card_info_malloc(&cardInfo)
            defer { snd_ctl_card_info_free(cardInfo) }
            guard systemCallNegativeErrno(.controlCardInfo, { snd_ctl_card_info(ctl, cardInfo) }) == 0 else { continue }
            let cardName = String(cString: snd_ctl_card_info_get_name(cardInfo))
            var device: Int32 = -1
            while systemCallNegativeErrno(.controlNextDevice, { snd_ctl_pcm_next_device(ctl, &device) }) == 0 && device >= 0 {
                var info: OpaquePointer?
                snd_pcm_info_malloc(&info)
                defer { snd_pcm_info_free(info) }
                snd_pcm_info_set_device(info, UInt32(device))
                snd_pcm_info_set_subdevice(info, 0)
                snd_pcm_info_set_stream(info, SND_PCM_STREAM_CAPTURE)
                guard systemCallNegativeErrno(.controlPCMInfo, { snd_ctl_pcm_info(ctl, info) }) == 0 else { continue }
                let name = "hw:\(card),\(device)"
                let (rates, channels) = ranges(name)
                result.append(MicrophoneDescription(name: name, card: cardName,
                                                    device: String(cString: snd_pcm_info_get_name(info)),
                                                    rates: rates, channels: channels))
            }
        }
        return result
    }

    private func ranges(_ name: String) -> (ClosedRange<Int>?, ClosedRange<Int>?) {
        var pcm: OpaquePointer?
        guard systemCallNegativeErrno(.pcmOpen, { snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) }) == 0 else { return (nil, nil) }
        defer { snd_pcm_close(pcm) }
        var params: OpaquePointer?
        snd_pcm_hw_params_malloc(&params)
        defer { snd_pcm_hw_params_free(params) }
        guard systemCallNegativeErrno(.pcmHardwareParameters, { snd_pcm_hw_params_any(pcm, params) }) >= 0 else { return (nil, nil) }
        var low: UInt32 = 0, high: UInt32 = 0, direction: Int32 = 0
        var rates: ClosedRange<Int>?
        if snd_pcm_hw_params_get_rate_min(params, &low, &direction) == 0,
           snd_pcm_hw_params_get_rate_max(params, &high, &direction) == 0, low <= high {
            rates = Int(low)...Int(high)
        }
        var channels: ClosedRange<Int>?
        if snd_pcm_hw_params_get_channels_min(params, &low) == 0, snd_pcm_hw_params_get_channels_max(params, &high) == 0, low <= high {
            channels = Int(low)...Int(min(high, 64))
        }
        return (rates, channels)
    }

    /// Resolves `--mic`: an index from `vidrec devices`, or an ALSA PCM name
    /// (`default`, `hw:1,0`, `plughw:CARD=Loopback,DEV=1`), which is checked when opened.
    public func resolve(_ selector: String) throws -> String {
        guard let index = Int(selector) else { return selector }
        let all = microphones()
        guard all.indices.contains(index) else {
            throw DeviceError.microphoneNotFound(name: selector, reason: "there is no microphone \(index)", available: listing(all))
        }
        return all[index].name
    }

    /// `0: hw:0,0 (Loopback)`, for error messages.
    func listing(_ all: [MicrophoneDescription]) -> [String] {
        all.enumerated().map { "\($0.offset): \($0.element.name) (\($0.element.card))" }
    }
}
