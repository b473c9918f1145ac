package org.ssbjca.backend.portable;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What BEGIN DIALOG with its first SEND in one call found in the declared objects (PostgreSQL): the two queues, for
 * services, contract, message type and body kind that passed every check, and the version of the declared objects
 * ({@code ssb.catalog_version}) read before those checks. The statement that uses an entry makes its rows only while
 * that version is still the database's, in its own snapshot: a change to any declared object (the triggers of
 * {@code sql/portable/postgresql-catalog-version.sql} raise the version in the changing transaction) makes it make
 * nothing, and the call checks everything again. The version is read before the checks, so an entry is never newer
 * than what it says. Only calls that passed are remembered; a refusal is always explained by the full checks.
 * <p>
 * Kept by a {@link PortableBroker} only when those triggers are installed and enabled (checked once, when the schema
 * is prepared). At most {@link #MAX_ENTRIES} entries: past that it starts again empty (an application has few such
 * combinations; the bound is for one that makes names up).
 */
final class CatalogCache {

    static final int MAX_ENTRIES = 1_024;

    /** What the checks depend on: the names, and the validations the body passes without parsing. */
    record Key(String fromService, String toService, String contract, String messageType, List<String> validations) {
    }

    /**
     * @param version the declared objects' version read before the checks passed
     * @param targetQueue the target service's queue
     * @param fromQueue the initiator service's queue
     */
    record Entry(long version, String targetQueue, String fromQueue) {
    }

    private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();

    /** @return what passed for this key, or null */
    Entry get(Key key) {
        return entries.get(key);
    }

    void put(Key key, Entry entry) {
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        entries.put(key, entry);
    }

    /** Forgets the entry, unless another call has replaced it meanwhile. */
    void remove(Key key, Entry stale) {
        entries.remove(key, stale);
    }

    int size() {
        return entries.size();
    }
}
