package org.ssbjca.backend.table;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A work queue on an application's own table, as a table activation names it: the table, its columns, the mode and
 * the limits. Names are checked here (letters, digits, underscores; the table optionally qualified by its schema)
 * and then {@linkplain #resolve resolved} against the database's catalog, so that the SQL quotes the names the
 * catalog holds (PostgreSQL folds unquoted names to lower case, H2 to upper case) and a name that matches no table or
 * column fails the activation, naming its property.
 */
public final class TableDefinition {

    /** How rows are taken. */
    public enum Mode {
        /** The row's removal (or done mark) commits with the bean's work: exactly once. */
        TRANSACTIONAL,
        /** The row is leased before the bean runs and removed when its transaction commits: at least once. */
        LEASED
    }

    /**
     * The most characters of an error written to an {@code errorColumn} whose length the catalog does not give or
     * gives longer (a {@code text} or {@code nvarchar(max)} column): as many as a dead letter's last error keeps.
     */
    public static final int ERROR_LENGTH = 4000;

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private final String table;
    private final Map<ColumnRole, String> columns;
    private final Mode mode;
    private final int leaseSeconds;
    private final int maxAttempts;

    private TableDefinition(Builder b) {
        this.table = b.table;
        this.columns = new LinkedHashMap<>(b.columns);
        this.mode = b.mode;
        this.leaseSeconds = b.leaseSeconds;
        this.maxAttempts = b.maxAttempts;
    }

    /**
     * Returns a builder.
     *
     * @param table the table, {@code name} or {@code schema.name}
     */
    public static Builder table(String table) {
        return new Builder(table);
    }

    /** Returns the table as given. */
    public String table() {
        return table;
    }

    /** Returns the mode. */
    public Mode mode() {
        return mode;
    }

    /** Returns seconds a leased row stays with its reader. */
    public int leaseSeconds() {
        return leaseSeconds;
    }

    /** Returns takings after which a row is set aside; 0 for no limit (always 0 without an attempts column). */
    public int maxAttempts() {
        return column(ColumnRole.ATTEMPTS) == null ? 0 : maxAttempts;
    }

    /**
     * Returns the column as given, or null when not named.
     *
     * @param property the column's role
     */
    public String column(ColumnRole property) {
        return columns.get(property);
    }

    /**
     * Finds the table and the columns in the catalog (exact name first, then the one name that differs only in case).
     *
     * @param c a connection to the database
     * @return the names as the catalog holds them, with the types of the key and payload columns
     * @throws IllegalArgumentException naming the property whose table or column does not exist
     * @throws SQLException if the catalog cannot be read
     */
    public Resolved resolve(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        int dot = table.indexOf('.');
        String schema = dot < 0 ? null : table.substring(0, dot);
        String name = dot < 0 ? table : table.substring(dot + 1);
        List<String[]> found = new ArrayList<>();
        try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE", "VIEW", "BASE TABLE"})) {
            while (rs.next()) {
                String s = rs.getString("TABLE_SCHEM");
                String t = rs.getString("TABLE_NAME");
                if (t.equalsIgnoreCase(name) && (schema == null || schema.equalsIgnoreCase(s))) {
                    found.add(new String[] {s, t});
                }
            }
        }
        String[] chosen = pick(found, schema, name, c);
        if (chosen == null) {
            throw new IllegalArgumentException("table: no table or view '" + table + "' in the database"
                    + (found.size() > 1 ? " that is not ambiguous (found in several schemas; qualify it as"
                    + " schema.table)" : ""));
        }
        Map<String, String> catalogColumns = new LinkedHashMap<>();
        Map<String, Integer> types = new LinkedHashMap<>();
        Map<String, String> typeNames = new LinkedHashMap<>();
        Map<String, Integer> sizes = new LinkedHashMap<>();
        try (ResultSet rs = meta.getColumns(null, chosen[0], chosen[1], "%")) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME");
                catalogColumns.put(column, column);
                types.put(column, rs.getInt("DATA_TYPE"));
                typeNames.put(column, rs.getString("TYPE_NAME"));
                if (columns.containsKey(ColumnRole.ERROR)) {
                    sizes.put(column, rs.getInt("COLUMN_SIZE"));
                }
            }
        }
        Map<ColumnRole, String> resolved = new LinkedHashMap<>();
        for (Map.Entry<ColumnRole, String> e : columns.entrySet()) {
            String match = catalogColumns.containsKey(e.getValue()) ? e.getValue() : null;
            if (match == null) {
                for (String column : catalogColumns.keySet()) {
                    if (column.equalsIgnoreCase(e.getValue())) {
                        match = column;
                        break;
                    }
                }
            }
            if (match == null) {
                throw new IllegalArgumentException(e.getKey() + ": the table " + chosen[1] + " has no column '"
                        + e.getValue() + "' (it has " + String.join(", ", catalogColumns.keySet()) + ")");
            }
            resolved.put(e.getKey(), match);
        }
        Map<ColumnRole, Integer> resolvedTypes = new LinkedHashMap<>();
        Map<ColumnRole, String> resolvedTypeNames = new LinkedHashMap<>();
        resolved.forEach((property, column) -> {
            resolvedTypes.put(property, types.get(column));
            resolvedTypeNames.put(property, typeNames.get(column));
        });
        String error = resolved.get(ColumnRole.ERROR);
        if (error != null && !isCharacters(types.get(error))) {
            throw new IllegalArgumentException(ColumnRole.ERROR + ": the column " + error + " of the table " + chosen[1]
                    + " is " + typeNames.get(error) + ", not text (a failure's error is written to it)");
        }
        String errorTime = resolved.get(ColumnRole.ERROR_TIME);
        if (errorTime != null && types.get(errorTime) != Types.TIMESTAMP
                && types.get(errorTime) != Types.TIMESTAMP_WITH_TIMEZONE) {
            throw new IllegalArgumentException(ColumnRole.ERROR_TIME + ": the column " + errorTime + " of the table "
                    + chosen[1] + " is " + typeNames.get(errorTime) + ", not a timestamp (the time of a failure is"
                    + " written to it)");
        }
        int errorLength = error == null ? 0 : errorLength(sizes.get(error));
        return new Resolved(this, chosen[0], chosen[1], resolved, resolvedTypes, resolvedTypeNames, errorLength);
    }

    /**
     * Returns how many characters of an error the error column takes: its length when the catalog gives one of at
     * most {@link #ERROR_LENGTH}, else that bound.
     */
    private static int errorLength(Integer size) {
        return size == null || size <= 0 || size > ERROR_LENGTH ? ERROR_LENGTH : size;
    }

    private static boolean isCharacters(int type) {
        return type == Types.CHAR || type == Types.VARCHAR || type == Types.NCHAR || type == Types.NVARCHAR
                || type == Types.LONGVARCHAR || type == Types.LONGNVARCHAR || type == Types.CLOB || type == Types.NCLOB;
    }

    private static String[] pick(List<String[]> found, String schema, String name, Connection c) throws SQLException {
        if (found.isEmpty()) {
            return null;
        }
        for (String[] f : found) {
            if (f[1].equals(name) && (schema == null || schema.equals(f[0]))) {
                return f;
            }
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        String current = c.getSchema();
        for (String[] f : found) {
            if (current != null && current.equalsIgnoreCase(f[0])) {
                return f;
            }
        }
        return null;
    }

    private static boolean isBinary(int type) {
        return type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY || type == Types.BLOB;
    }

    /** The definition with the names the catalog holds. */
    public static final class Resolved {
        private final TableDefinition definition;
        private final String schema;
        private final String table;
        private final Map<ColumnRole, String> columns;
        private final Map<ColumnRole, Integer> types;
        private final Map<ColumnRole, String> typeNames;
        private final int errorLength;

        Resolved(TableDefinition definition, String schema, String table, Map<ColumnRole, String> columns,
                Map<ColumnRole, Integer> types, Map<ColumnRole, String> typeNames, int errorLength) {
            this.definition = definition;
            this.schema = schema;
            this.table = table;
            this.columns = columns;
            this.types = types;
            this.typeNames = typeNames;
            this.errorLength = errorLength;
        }

        /**
         * Returns the error as the error column takes it: cut to the column's length, or to {@link #ERROR_LENGTH}
         * characters when the catalog gives none (never between the two halves of a surrogate pair).
         *
         * @param error a failure's error
         */
        public String errorText(String error) {
            if (error.length() <= errorLength) {
                return error;
            }
            int end = Character.isHighSurrogate(error.charAt(errorLength - 1)) ? errorLength - 1 : errorLength;
            return error.substring(0, end);
        }

        /** Returns the definition as given. */
        public TableDefinition definition() {
            return definition;
        }

        /** Returns the table's schema as the catalog holds it, or null. */
        public String schema() {
            return schema;
        }

        /** Returns the table's name as the catalog holds it. */
        public String table() {
            return table;
        }

        /**
         * Returns the column's name as the catalog holds it, or null when not named.
         *
         * @param property the activation property naming the column
         */
        public String column(ColumnRole property) {
            return columns.get(property);
        }

        /**
         * Returns the column's type as the catalog names it (the driver's {@code TYPE_NAME}: {@code datetime2} on SQL
         * Server), or null when the activation names no such column.
         *
         * @param property the activation property naming the column
         */
        public String typeName(ColumnRole property) {
            return typeNames.get(property);
        }

        /** Returns whether the payload column is binary (else it is read as text). */
        public boolean binaryPayload() {
            return isBinary(types.get(ColumnRole.PAYLOAD));
        }

        /**
         * Returns whether that column holds characters (a mark kept as text is bound as a string).
         *
         * @param property the activation property naming the column
         */
        public boolean isText(ColumnRole property) {
            Integer type = types.get(property);
            return type != null && (type == Types.CHAR || type == Types.VARCHAR || type == Types.NCHAR
                    || type == Types.NVARCHAR || type == Types.LONGVARCHAR || type == Types.LONGNVARCHAR);
        }
    }

    /** Builds a definition; {@link #build()} checks it. */
    public static final class Builder {
        private final String table;
        private final Map<ColumnRole, String> columns = new LinkedHashMap<>();
        private Mode mode = Mode.TRANSACTIONAL;
        private int leaseSeconds = 300;
        private int maxAttempts = 5;

        private Builder(String table) {
            this.table = table;
        }

        /**
         * Returns this builder.
         *
         * @param property the activation property ({@code keyColumn}, {@code payloadColumn}, ...)
         * @param name the column, or null or blank for none
         */
        public Builder column(ColumnRole property, String name) {
            if (name != null && !name.isBlank()) {
                columns.put(property, name.trim());
            } else {
                columns.remove(property);
            }
            return this;
        }

        /**
         * Returns this builder.
         *
         * @param m the mode
         */
        public Builder mode(Mode m) {
            this.mode = Objects.requireNonNull(m, "mode");
            return this;
        }

        /**
         * Returns this builder.
         *
         * @param seconds seconds a leased row stays with its reader
         */
        public Builder leaseSeconds(int seconds) {
            this.leaseSeconds = seconds;
            return this;
        }

        /**
         * Returns this builder.
         *
         * @param attempts takings after which a row is set aside (with an attempts column); 0 for no limit
         */
        public Builder maxAttempts(int attempts) {
            this.maxAttempts = attempts;
            return this;
        }

        /**
         * Returns the definition.
         *
         * @throws IllegalArgumentException naming the property whose value is refused, and what is accepted
         */
        public TableDefinition build() {
            if (table == null || table.isBlank()) {
                throw new IllegalArgumentException("table: required for a table activation (the work queue's table,"
                        + " name or schema.name)");
            }
            String[] parts = table.trim().split("\\.", -1);
            if (parts.length > 2 || !java.util.Arrays.stream(parts).allMatch(p -> NAME.matcher(p).matches())) {
                throw new IllegalArgumentException("table: '" + table + "' is not a table name: letters, digits and"
                        + " underscores, optionally schema.table");
            }
            for (Map.Entry<ColumnRole, String> e : columns.entrySet()) {
                if (!NAME.matcher(e.getValue()).matches()) {
                    throw new IllegalArgumentException(e.getKey() + ": '" + e.getValue() + "' is not a column name:"
                            + " letters, digits and underscores");
                }
            }
            require(ColumnRole.KEY, "the column that identifies a row");
            require(ColumnRole.PAYLOAD, "the column handed to the bean");
            if (mode == Mode.LEASED) {
                require(ColumnRole.LEASE, "in the leased mode, the column that holds when a reader's lease ends (a"
                        + " timestamp, null when nobody holds the row)");
            } else if (columns.containsKey(ColumnRole.LEASE) || columns.containsKey(ColumnRole.MARK)) {
                throw new IllegalArgumentException((columns.containsKey(ColumnRole.LEASE) ? ColumnRole.LEASE
                        : ColumnRole.MARK)
                        + ": only for mode=leased (mode is transactional)");
            }
            if (columns.containsKey(ColumnRole.ERROR_TIME) && !columns.containsKey(ColumnRole.ERROR)) {
                throw new IllegalArgumentException(ColumnRole.ERROR_TIME + ": needs errorColumn (the time is written"
                        + " with a failure's error)");
            }
            if (leaseSeconds < 1 || leaseSeconds > 86_400) {
                throw new IllegalArgumentException("leaseSeconds: " + leaseSeconds + " is out of range: 1 to 86400");
            }
            if (maxAttempts < 0 || maxAttempts > 1000) {
                throw new IllegalArgumentException("maxAttempts: " + maxAttempts + " is out of range: 0 (no limit)"
                        + " to 1000");
            }
            return new TableDefinition(this);
        }

        private void require(ColumnRole property, String what) {
            if (!columns.containsKey(property)) {
                throw new IllegalArgumentException(property + ": required for a table activation: " + what);
            }
        }
    }

    @Override
    public String toString() {
        return "table " + table + " (" + mode.name().toLowerCase(Locale.ROOT) + ")";
    }
}
