package org.ssbjca.management;

import java.util.Date;
import javax.management.ConstructorParameters;

/** The progress of a throttled redelivery ({@code getRedeliveryJob}); JMX clients see it as {@code CompositeData}. */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
public final class RedeliveryJobInfo {

    private final String description;
    private final String state;
    private final int total;
    private final int redelivered;
    private final int failed;
    private final double messagesPerSecond;
    private final Date startedAt;
    private final Date endedAt;
    private final String error;

    /**
     * @param description what it redelivers: a group's key, or a selection
     * @param state RUNNING, DONE, CANCELLED or FAILED
     * @param total the letters it was given
     * @param redelivered those the bean took (they left the dead letters)
     * @param failed those the bean failed again, or that were gone (they stay)
     * @param messagesPerSecond its rate
     * @param startedAt when it was started
     * @param endedAt when it ended, or null while it runs
     * @param error why it failed, or null
     */
    @ConstructorParameters({"description", "state", "total", "redelivered", "failed", "messagesPerSecond",
        "startedAt", "endedAt", "error"})
    public RedeliveryJobInfo(String description, String state, int total, int redelivered, int failed,
            double messagesPerSecond, Date startedAt, Date endedAt, String error) {
        this.description = description;
        this.state = state;
        this.total = total;
        this.redelivered = redelivered;
        this.failed = failed;
        this.messagesPerSecond = messagesPerSecond;
        this.startedAt = startedAt == null ? null : new Date(startedAt.getTime());
        this.endedAt = endedAt == null ? null : new Date(endedAt.getTime());
        this.error = error;
    }

    /** Returns what it redelivers. */
    public String getDescription() {
        return description;
    }

    /** Returns RUNNING, DONE, CANCELLED or FAILED. */
    public String getState() {
        return state;
    }

    /** Returns the letters it was given. */
    public int getTotal() {
        return total;
    }

    /** Returns those the bean took. */
    public int getRedelivered() {
        return redelivered;
    }

    /** Returns those the bean failed again, or that were gone. */
    public int getFailed() {
        return failed;
    }

    /** Returns its rate, messages per second. */
    public double getMessagesPerSecond() {
        return messagesPerSecond;
    }

    /** Returns when it was started. */
    public Date getStartedAt() {
        return startedAt == null ? null : new Date(startedAt.getTime());
    }

    /** Returns when it ended, or null while it runs. */
    public Date getEndedAt() {
        return endedAt == null ? null : new Date(endedAt.getTime());
    }

    /** Returns why it failed, or null. */
    public String getError() {
        return error;
    }
}
