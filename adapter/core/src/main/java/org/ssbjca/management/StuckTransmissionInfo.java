package org.ssbjca.management;

import java.util.Date;
import javax.management.ConstructorParameters;
import org.ssbjca.backend.StuckTransmission;

/**
 * A message waiting in the database's transmission queue, with what to do about it; JMX clients see it as
 * {@code CompositeData} (toService, conversation, enqueued, status, action).
 */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
public final class StuckTransmissionInfo {

    private final String toService;
    private final String conversation;
    private final Date enqueued;
    private final String status;
    private final String action;

    /**
     * @param toService the service it is sent to (the portable schema: the queue it waits for)
     * @param conversation the sending side's conversation handle
     * @param enqueued when it entered the transmission queue
     * @param status its transmission_status, blank when not tried yet
     * @param action what that status means and what to run
     */
    @ConstructorParameters({"toService", "conversation", "enqueued", "status", "action"})
    public StuckTransmissionInfo(String toService, String conversation, Date enqueued, String status, String action) {
        this.toService = toService;
        this.conversation = conversation;
        this.enqueued = enqueued == null ? null : new Date(enqueued.getTime());
        this.status = status;
        this.action = action;
    }

    static StuckTransmissionInfo of(StuckTransmission t) {
        return new StuckTransmissionInfo(t.toService(), String.valueOf(t.conversation()),
                t.enqueued() == null ? null : Date.from(t.enqueued()), t.status() == null ? "" : t.status(),
                t.action());
    }

    /** Returns the service it is sent to. */
    public String getToService() {
        return toService;
    }

    /** Returns the sending side's conversation handle. */
    public String getConversation() {
        return conversation;
    }

    /** Returns when it entered the transmission queue. */
    public Date getEnqueued() {
        return enqueued == null ? null : new Date(enqueued.getTime());
    }

    /** Returns its transmission_status. */
    public String getStatus() {
        return status;
    }

    /** Returns what to do about it. */
    public String getAction() {
        return action;
    }
}
