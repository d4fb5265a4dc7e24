import Foundation

/// A control's state in a snapshot: its value (typed), whether it takes values now, and the kind's extras
/// (screens.md "Snapshot": `placeholder`; `min`/`max`/`step`; `segments`/`index`; `options`/`selected`).
public struct ControlSnapshot: Equatable, Sendable {
    public var value: SnapshotValue
    public var enabled: Bool
    /// Text cells: the placeholder shown while the text is empty.
    public var placeholder: String?
    /// Text cells with `secure`: the value is never shown.
    public var secure = false
    /// Sliders and steppers: the range (numbers); date cells: the range as ISO 8601 strings.
    public var min: SnapshotValue?
    public var max: SnapshotValue?
    /// Steppers: the step.
    public var step: SnapshotValue?
    /// Segment cells: the segment titles and the selected index (0-based, as OKit stores it).
    public var segments: [String]?
    public var index: Int?
    /// Picker cells: the options' names and the selected option's 1-based position.
    public var options: [String]?
    public var selected: Int?

    /// A control with a value and the kind's extras.
    public init(value: SnapshotValue, enabled: Bool, placeholder: String? = nil, secure: Bool = false,
                min: SnapshotValue? = nil, max: SnapshotValue? = nil, step: SnapshotValue? = nil,
                segments: [String]? = nil, index: Int? = nil, options: [String]? = nil, selected: Int? = nil) {
        self.value = value
        self.enabled = enabled
        self.placeholder = placeholder
        self.secure = secure
        self.min = min
        self.max = max
        self.step = step
        self.segments = segments
        self.index = index
        self.options = options
        self.selected = selected
    }
}

/// A value in a snapshot (keeps its type: a switch's value is a bool, a stepper's a number; dates are ISO 8601
/// strings).
public enum SnapshotValue: Equatable, Sendable {
    case null, bool(Bool), int(Int), double(Double), string(String)

    init(_ v: Value) {
        switch v {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        default: self = v.displayString.map { .string($0) } ?? .null
        }
    }
}
