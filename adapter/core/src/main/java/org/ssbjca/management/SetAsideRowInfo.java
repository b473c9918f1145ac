package org.ssbjca.management;

import javax.management.ConstructorParameters;

/** A set-aside row of a table activation ({@code searchSetAside}); JMX clients see it as {@code CompositeData}. */
public final class SetAsideRowInfo {

    private final String key;
    private final String error;

    /**
     * @param key the row's key, as text
     * @param error its last failure's error, or null
     */
    @ConstructorParameters({"key", "error"})
    public SetAsideRowInfo(String key, String error) {
        this.key = key;
        this.error = error;
    }

    /** Returns the row's key, as text. */
    public String getKey() {
        return key;
    }

    /** Returns its last failure's error, or null. */
    public String getError() {
        return error;
    }
}
