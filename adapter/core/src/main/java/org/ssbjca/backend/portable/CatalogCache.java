package org.ssbjca.backend.portable;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the checks of BEGIN DIALOG and SEND found in the declared objects (PostgreSQL), by the names they were asked
 * about, with the version of the declared objects ({@code ssb.catalog_version}) read before they ran. A statement
 * given those findings ({@link PostgresSql#beginDialogKnown}, {@link PostgresSql#sendKnown}) instead of its
 * checks does its work only while that version is still the database's, in the statement's own snapshot; a change to
 * any declared object (the triggers of {@code sql/portable/postgresql-catalog-version.sql} give the version a new
 * number from a sequence in the changing transaction, never one used before, also when that transaction rolls back)
 * makes it return no row, and the call runs the checks again. The version is read before the checks, so a finding is
 * never newer than the version it is kept with. Findings are facts, not verdicts: the statement still applies every
 * rule to them (a refusal is explained as without them).
 * <p>
 * Kept by a {@link PortableBroker} only when those triggers are installed and enabled (checked once, when the schema
 * is prepared). At most {@link #MAX_ENTRIES} entries: past that it starts again empty (an application asks about few
 * names; the bound is for one that makes them up).
 */
final class CatalogCache {

    static final int MAX_ENTRIES = 1_024;

    /** Which checks ran: {@link PortableSql#dialogChecks}, {@link PortableSql#sendChecks}, or both in one statement. */
    enum Checks { DIALOG, SEND, DIALOG_AND_SEND }

    /** The checks and the names they were asked about, in the order of their parameters. */
    record Key(Checks checks, List<String> names) {
    }

    /**
     * @param version the declared objects' version read before the checks ran
     * @param found the checks' columns, typed for binding as the known statement's first parameters
     */
    record Entry(long version, Object[] found) {
    }

    private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();

    /** Returns what the checks found for this key, or null. */
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
}
