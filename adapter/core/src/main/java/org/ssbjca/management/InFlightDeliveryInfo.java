package org.ssbjca.management;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.management.ConstructorParameters;
import org.ssbjca.inbound.ActivationMetrics;

/**
 * A delivery in progress: which reader, which conversation group, how many messages, since when (what the
 * {@code ExecutionStatus} view of activated stored procedures shows). JMX clients see it as {@code CompositeData}.
 */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
public final class InFlightDeliveryInfo {

    private final String reader;
    private final String conversationGroup;
    private final int messages;
    private final Date since;
    private final long runningMillis;

    /**
     * @param reader the reader's name
     * @param conversationGroup the group being delivered
     * @param messages how many messages the bean got
     * @param since when the delivery started
     * @param runningMillis how long it has been running
     */
    @ConstructorParameters({"reader", "conversationGroup", "messages", "since", "runningMillis"})
    public InFlightDeliveryInfo(String reader, String conversationGroup, int messages, Date since,
            long runningMillis) {
        this.reader = reader;
        this.conversationGroup = conversationGroup;
        this.messages = messages;
        this.since = new Date(since.getTime());
        this.runningMillis = runningMillis;
    }

    static InFlightDeliveryInfo of(String reader, ActivationMetrics.InFlight d, Instant now) {
        return new InFlightDeliveryInfo(reader, String.valueOf(d.group()), d.messages(), Date.from(d.since()),
                Math.max(0, Duration.between(d.since(), now).toMillis()));
    }

    /** Returns the reader's name. */
    public String getReader() {
        return reader;
    }

    /** Returns the conversation group being delivered. */
    public String getConversationGroup() {
        return conversationGroup;
    }

    /** Returns how many messages the bean got. */
    public int getMessages() {
        return messages;
    }

    /** Returns when the delivery started. */
    public Date getSince() {
        return new Date(since.getTime());
    }

    /** Returns how long it has been running, in milliseconds. */
    public long getRunningMillis() {
        return runningMillis;
    }
}
