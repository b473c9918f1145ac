package org.ssbjca.management;

import java.util.List;
import javax.management.ConstructorParameters;

/**
 * The set-aside rows of a table activation with one failure shape ({@code listSetAsideGroups}), as the dead letters'
 * groups ({@link DeadLetterGroupInfo}) but without times: no column records when a row failed. JMX clients see it as
 * {@code CompositeData}. The key redelivers the group ({@code redeliverSetAsideGroup}).
 */
public final class SetAsideGroupInfo {

    private final String key;
    private final String exceptionClass;
    private final long count;
    private final List<String> sampleKeys;
    private final String exampleError;

    /**
     * @param key the failure's shape ({@code (no error recorded)} for rows without an error)
     * @param exceptionClass the exception's class, empty when the error names none
     * @param count the group's rows among those scanned
     * @param sampleKeys the keys of its first rows (at most {@value SetAsideGroups#SAMPLE}), as text
     * @param exampleError the first row's error as recorded, or null
     */
    @ConstructorParameters({"key", "exceptionClass", "count", "sampleKeys", "exampleError"})
    public SetAsideGroupInfo(String key, String exceptionClass, long count, List<String> sampleKeys,
            String exampleError) {
        this.key = key;
        this.exceptionClass = exceptionClass;
        this.count = count;
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

    /** Returns the keys of its first rows, as text. */
    public List<String> getSampleKeys() {
        return sampleKeys;
    }

    /** Returns the first row's error as recorded, or null. */
    public String getExampleError() {
        return exampleError;
    }
}
