package org.ssbjca.support;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A flight recorder event: a reader of a queue connecting, from its first connect or a reconnect after a failure:
 * opening its connection, waiting for its activation's reconnect gate and checking the platform, the broker and the
 * queue. Rare (an activation's start, a failure), so every one that succeeds is recorded by default.
 */
@Name(ConnectEvent.NAME)
@Label("Reader connect")
@Category({"ssb-jca", "Inbound"})
@Description("A reader of a queue connecting: its connection opened and its queue checked, or the check of the readers"
        + " started with it relied on")
@StackTrace(false)
public final class ConnectEvent extends jdk.jfr.Event {

    /** The event's name in a recording. */
    public static final String NAME = "org.ssbjca.Connect";

    @Label("Queue")
    public String queue;

    @Label("Reader")
    public String reader;

    @Label("Reconnect")
    @Description("Whether it reconnected after a failure (one reader of the activation at a time); false for its first"
            + " connect, beside the activation's other readers")
    public boolean reconnect;

    @Label("Checked")
    @Description("Whether it checked the platform, the broker and the queue itself; false when it relied on the check"
            + " that passed for the readers started with it")
    public boolean checked;

    /**
     * Ends the connect and records it if the recording wants it.
     *
     * @param event what {@link FlightEvents#begun} returned, or null
     * @param queue the reader's queue
     * @param reader the reader
     * @param reconnect whether it reconnected after a failure
     * @param checked whether it checked itself
     */
    public static void finish(ConnectEvent event, String queue, String reader, boolean reconnect, boolean checked) {
        FlightEvents.ended(event, e -> {
            e.queue = queue;
            e.reader = reader;
            e.reconnect = reconnect;
            e.checked = checked;
        });
    }
}
