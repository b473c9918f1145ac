package org.ssbjca.support;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A flight recorder event: the bean's call for one delivery ({@code onMessage}, or {@code onMessages} for a
 * conversation-group listener), inside the delivery's transaction. Recorded when it takes 20 ms or more unless a
 * recording sets another threshold ({@code org.ssbjca.Delivery#threshold=0ms}). The event's thread is the reader's.
 */
@Name(DeliveryEvent.NAME)
@Label("Delivery to the bean")
@Category({"ssb-jca", "Inbound"})
@Description("The bean's call for one delivery, inside the delivery's transaction")
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
}
