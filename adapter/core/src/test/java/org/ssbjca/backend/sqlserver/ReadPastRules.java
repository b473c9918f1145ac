package org.ssbjca.backend.sqlserver;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A double of what SQL Server does with the READPAST table hint, as Microsoft Learn "Table hints (Transact-SQL)"
 * states it (https://learn.microsoft.com/sql/t-sql/queries/hints-transact-sql-table, READPAST): READPAST is
 * accepted only in a transaction at READ COMMITTED or REPEATABLE READ (error 650 otherwise; under SNAPSHOT even when
 * combined with UPDLOCK or HOLDLOCK, which MicrosoftDocs/sql-docs pull request 10287 verified and corrected), and
 * with READ_COMMITTED_SNAPSHOT ON at READ COMMITTED only together with READCOMMITTEDLOCK. It reads a batch's text in
 * order, following its SET TRANSACTION ISOLATION LEVEL statements, and judges every hint list that holds READPAST.
 */
final class ReadPastRules {

    /** The session's isolation levels. */
    enum Level {
        READ_UNCOMMITTED, READ_COMMITTED, REPEATABLE_READ, SERIALIZABLE, SNAPSHOT;

        static Level of(String words) {
            return valueOf(words.trim().replaceAll("\\s+", "_").toUpperCase(Locale.ROOT));
        }
    }

    private static final Pattern EVENTS = Pattern.compile(
            "SET TRANSACTION ISOLATION LEVEL (READ UNCOMMITTED|READ COMMITTED|REPEATABLE READ|SERIALIZABLE|SNAPSHOT)"
                    + "|WITH \\(([^)]*)\\)", Pattern.CASE_INSENSITIVE);

    private ReadPastRules() {
    }

    /**
     * @param batch a batch's text
     * @param session the session's level when the batch starts
     * @param rcsi whether the database has READ_COMMITTED_SNAPSHOT ON
     * @return null when SQL Server accepts every READPAST of the batch, else the error it raises at the first it
     *         refuses
     */
    static String check(String batch, Level session, boolean rcsi) {
        Level level = session;
        Matcher m = EVENTS.matcher(batch);
        while (m.find()) {
            if (m.group(1) != null) {
                level = Level.of(m.group(1));
                continue;
            }
            String hints = m.group(2).toUpperCase(Locale.ROOT).replace(" ", "");
            java.util.List<String> list = java.util.Arrays.asList(hints.split(","));
            if (!list.contains("READPAST")) {
                continue;
            }
            if (level != Level.READ_COMMITTED && level != Level.REPEATABLE_READ) {
                return "error 650 (READPAST at " + level + "): WITH (" + m.group(2) + ")";
            }
            if (rcsi && level == Level.READ_COMMITTED && !list.contains("READCOMMITTEDLOCK")) {
                return "READPAST at READ COMMITTED with READ_COMMITTED_SNAPSHOT ON without READCOMMITTEDLOCK: WITH ("
                        + m.group(2) + ")";
            }
        }
        return null;
    }

    /**
     * @param batch a batch's text
     * @return how many hint lists of it hold READPAST
     */
    static int readPasts(String batch) {
        int n = 0;
        Matcher m = EVENTS.matcher(batch);
        while (m.find()) {
            if (m.group(2) != null && m.group(2).toUpperCase(Locale.ROOT).contains("READPAST")) {
                n++;
            }
        }
        return n;
    }
}
