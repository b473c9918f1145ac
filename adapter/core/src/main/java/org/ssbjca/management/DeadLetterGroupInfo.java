package org.ssbjca.management;

import java.util.Date;
import javax.management.ConstructorParameters;

/**
 * The dead letters of one failure shape ({@code listDeadLetterGroups}); JMX clients see it as {@code CompositeData}.
 * The key redelivers the group ({@code startGroupRedelivery}).
 */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
public final class DeadLetterGroupInfo {

    private final String key;
    private final String exceptionClass;
    private final long count;
    private final Date firstSeen;
    private final Date lastSeen;
    private final long exampleId;
    private final String exampleError;

    /**
     * @param key the failure's shape: exception class and message with numbers, UUIDs and quoted values replaced
     * @param exceptionClass the exception's class, empty when the error names none
     * @param count the group's dead letters among those scanned
     * @param firstSeen when the first of them was dead-lettered
     * @param lastSeen when the last of them was
     * @param exampleId the id of the oldest of them
     * @param exampleError its last error as recorded
     */
    @ConstructorParameters({"key", "exceptionClass", "count", "firstSeen", "lastSeen", "exampleId", "exampleError"})
    public DeadLetterGroupInfo(String key, String exceptionClass, long count, Date firstSeen, Date lastSeen,
            long exampleId, String exampleError) {
        this.key = key;
        this.exceptionClass = exceptionClass;
        this.count = count;
        this.firstSeen = firstSeen == null ? null : new Date(firstSeen.getTime());
        this.lastSeen = lastSeen == null ? null : new Date(lastSeen.getTime());
        this.exampleId = exampleId;
        this.exampleError = exampleError;
    }

    /** Returns the failure's shape, the group's key. */
    public String getKey() {
        return key;
    }

    /** Returns the exception's class, empty when the error names none. */
    public String getExceptionClass() {
        return exceptionClass;
    }

    /** Returns the group's dead letters among those scanned. */
    public long getCount() {
        return count;
    }

    /** Returns when the first of them was dead-lettered. */
    public Date getFirstSeen() {
        return firstSeen == null ? null : new Date(firstSeen.getTime());
    }

    /** Returns when the last of them was dead-lettered. */
    public Date getLastSeen() {
        return lastSeen == null ? null : new Date(lastSeen.getTime());
    }

    /** Returns the id of the oldest of them. */
    public long getExampleId() {
        return exampleId;
    }

    /** Returns its last error as recorded, or null. */
    public String getExampleError() {
        return exampleError;
    }
}
