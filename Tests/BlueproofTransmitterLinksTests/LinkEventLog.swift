import BlueproofAsync
import BlueproofTransmitter

/// Every event a link reported, and waiting for one that matches.
typealias LinkEventLog = EventLog<LinkEvent>
