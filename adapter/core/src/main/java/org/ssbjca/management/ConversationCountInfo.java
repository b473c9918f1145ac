package org.ssbjca.management;

import java.util.Date;
import javax.management.ConstructorParameters;
import org.ssbjca.backend.EndpointCount;

/**
 * Conversation endpoints of one service in one state; JMX clients see it as {@code CompositeData} (service, state,
 * count, oldestBegun).
 */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
public final class ConversationCountInfo {

    private final String service;
    private final String state;
    private final long count;
    private final Date oldestBegun;

    /**
     * @param service the service of this side of the conversations
     * @param state the state code: SO, SI, CO, DI (the other side ended), DO (this side ended), ER, CD (closed)
     * @param count how many endpoints
     * @param oldestBegun when the oldest of them began, or null when unknown
     */
    @ConstructorParameters({"service", "state", "count", "oldestBegun"})
    public ConversationCountInfo(String service, String state, long count, Date oldestBegun) {
        this.service = service;
        this.state = state;
        this.count = count;
        this.oldestBegun = oldestBegun == null ? null : new Date(oldestBegun.getTime());
    }

    static ConversationCountInfo of(EndpointCount c) {
        return new ConversationCountInfo(c.service(), c.state(), c.count(),
                c.oldestBegun() == null ? null : Date.from(c.oldestBegun()));
    }

    /** Returns the service. */
    public String getService() {
        return service;
    }

    /** Returns the state code. */
    public String getState() {
        return state;
    }

    /** Returns how many endpoints. */
    public long getCount() {
        return count;
    }

    /** Returns when the oldest began, or null. */
    public Date getOldestBegun() {
        return oldestBegun == null ? null : new Date(oldestBegun.getTime());
    }
}
