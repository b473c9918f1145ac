package org.ssbjca.support;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A flight recorder event: the bean's call for one delivery ({@code onMessage}, {@code onMessages} for a
 * conversation-group listener, the {@code onRow} calls of a table activation's delivery), inside the delivery's
 * transaction. Recorded when it takes 20 ms or more unless a
 * recording sets another threshold ({@code org.ssbjca.Delivery#threshold=0ms}). The event's thread is the reader's.
 */
@Name(DeliveryEvent.NAME)
@Label("Delivery to the bean")
@Category({"ssb-jca", "Inbound"})
@Description("The bean's call for one delivery, inside the delivery's transaction (for a table activation, its rows'"
        + " calls)")
@Threshold("20 ms")
@StackTrace(false)
public final class DeliveryEvent extends jdk.jfr.Event {

    /** The event's name in a recording. */
    public static final String NAME = "org.ssbjca.Delivery";

    @Label("Queue")
    public String queue;

    @Label("Messages")
    public int messages;

    @Label("Conversation group")
    public String group;

    @Label("Succeeded")
    @Description("Whether the bean returned normally without marking the transaction for rollback")
    public boolean succeeded;

    /**
     * Ends the bean's call and records it if the recording wants a call that long.
     *
     * @param event what {@link FlightEvents#begun} returned, or null
     * @param queue the activation's queue, or a table activation's table
     * @param messages the messages (or rows) the bean was given
     * @param group their conversation group, or null
     * @param succeeded asked only when the event is recorded
     */
    public static void finish(DeliveryEvent event, String queue, int messages, Object group,
            java.util.function.BooleanSupplier succeeded) {
        FlightEvents.ended(event, e -> {
            e.queue = queue;
            e.messages = messages;
            e.group = group == null ? null : group.toString();
            e.succeeded = succeeded.getAsBoolean();
        });
    }
}
