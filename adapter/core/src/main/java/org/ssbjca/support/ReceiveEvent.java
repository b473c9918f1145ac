package org.ssbjca.support;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A flight recorder event: one look of a RECEIVE at its queue on the portable schema (PostgreSQL, H2), the statements
 * that take the messages, without the wait for a signal between looks ({@link WaitEvent}). Recorded when it takes 20
 * ms or more unless a recording sets another threshold ({@code org.ssbjca.Receive#threshold=0ms}).
 */
@Name(ReceiveEvent.NAME)
@Label("RECEIVE")
@Category({"ssb-jca", "Inbound"})
@Description("One look of a RECEIVE at its queue (portable schema): the statements that take the messages")
@Threshold("20 ms")
@StackTrace(false)
public final class ReceiveEvent extends jdk.jfr.Event {

    /** The event's name in a recording. */
    public static final String NAME = "org.ssbjca.Receive";

    @Label("Queue")
    public String queue;

    @Label("Messages")
    @Description("How many messages the look took; 0 when it found none")
    public int messages;

    /**
     * Ends the look and records it if the recording wants a look that long.
     *
     * @param event what {@link FlightEvents#begun} returned, or null
     * @param queue the queue looked at
     * @param messages how many messages the look took
     */
    public static void finish(ReceiveEvent event, String queue, int messages) {
        FlightEvents.ended(event, e -> {
            e.queue = queue;
            e.messages = messages;
        });
    }
}
