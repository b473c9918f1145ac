package org.ssbjca.management;

import java.util.Date;
import java.util.List;
import javax.management.ConstructorParameters;

/**
 * The set-aside rows of a table activation with one failure shape ({@code listSetAsideGroups}), as the dead letters'
 * groups ({@link DeadLetterGroupInfo}); its times are those of the rows' last failures, from the table's
 * {@code errorTimeColumn}, and null without one. JMX clients see it as {@code CompositeData}. The key redelivers the
 * group ({@code redeliverSetAsideGroup}, {@code startSetAsideGroupRequeue}).
 */
@SuppressWarnings("JavaUtilDate") // JMX open types (CompositeData) carry dates as java.util.Date
public final class SetAsideGroupInfo {

    private final String key;
    private final String exceptionClass;
    private final long count;
    private final Date firstSeen;
    private final Date lastSeen;
    private final List<String> sampleKeys;
    private final String exampleError;

    /**
     * @param key the failure's shape ({@code (no error recorded)} for rows without an error)
     * @param exceptionClass the exception's class, empty when the error names none
     * @param count the group's rows among those scanned
     * @param firstSeen the earliest of its rows' last failures, or null when none has a time
     * @param lastSeen the latest of its rows' last failures, or null when none has a time
     * @param sampleKeys the keys of its first rows (at most {@value SetAsideGroups#SAMPLE}), as text
     * @param exampleError the first row's error as recorded, or null
     */
    @ConstructorParameters({"key", "exceptionClass", "count", "firstSeen", "lastSeen", "sampleKeys", "exampleError"})
    public SetAsideGroupInfo(String key, String exceptionClass, long count, Date firstSeen, Date lastSeen,
            List<String> sampleKeys, String exampleError) {
        this.key = key;
        this.exceptionClass = exceptionClass;
        this.count = count;
        this.firstSeen = firstSeen == null ? null : new Date(firstSeen.getTime());
        this.lastSeen = lastSeen == null ? null : new Date(lastSeen.getTime());
        this.sampleKeys = List.copyOf(sampleKeys);
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

    /** Returns the group's rows among those scanned. */
    public long getCount() {
        return count;
    }

    /** Returns the earliest of its rows' last failures, or null when none has a time. */
    public Date getFirstSeen() {
        return firstSeen == null ? null : new Date(firstSeen.getTime());
    }

    /** Returns the latest of its rows' last failures, or null when none has a time. */
    public Date getLastSeen() {
        return lastSeen == null ? null : new Date(lastSeen.getTime());
    }

    /** Returns the keys of its first rows, as text. */
    public List<String> getSampleKeys() {
        return sampleKeys;
    }

    /** Returns the first row's error as recorded, or null. */
    public String getExampleError() {
        return exampleError;
    }
}
