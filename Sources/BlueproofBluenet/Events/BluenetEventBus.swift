/// Publish/subscribe as both libraries offer it (bluenet-lib-ios README, "Event Methods"):
/// `on(topic, callback)` returns an id, distinct from every id handed out before; `off(id)`
/// stops that subscription's callbacks. Callbacks run synchronously, in subscription order, on
/// the caller of ``publish(_:)``: the bus does no I/O and keeps no thread.
public struct BluenetEventBus {
    public typealias Callback = (BluenetEvent) -> Void

    private var subscriptions: [(id: Int, topic: BluenetTopic, callback: Callback)] = []
    private var lastId = 0

    public init() {}

    /// Subscribes `callback` to `topic`; the id is for ``off(_:)``.
    @discardableResult
    public mutating func on(_ topic: BluenetTopic, _ callback: @escaping Callback) -> Int {
        lastId += 1
        subscriptions.append((lastId, topic, callback))
        return lastId
    }

    /// Subscribes by the document's topic name; an unknown name throws.
    @discardableResult
    public mutating func on(topicName: String, _ callback: @escaping Callback) throws(BluenetError) -> Int {
        on(try BluenetTopic(name: topicName), callback)
    }

    /// Ends subscription `id`; false when there was none (never given out, or already ended).
    @discardableResult
    public mutating func off(_ id: Int) -> Bool {
        guard let index = subscriptions.firstIndex(where: { $0.id == id }) else { return false }
        subscriptions.remove(at: index)
        return true
    }

    /// How many subscriptions are live.
    public var count: Int { subscriptions.count }

    /// Calls every subscriber of the event's topic.
    public func publish(_ event: BluenetEvent) {
        for subscription in subscriptions where subscription.topic == event.topic {
            subscription.callback(event)
        }
    }
}
