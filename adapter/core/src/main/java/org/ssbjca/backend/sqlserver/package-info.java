/**
 * The native SQL Server Service Broker backend: {@link org.ssbjca.backend.sqlserver.SqlServerBroker}.
 *
 * <p>All T-SQL text lives in {@code TSql} (the verbs) and {@code TSqlAdmin} (the catalog reads), each statement with
 * the Microsoft Learn page it follows. Values are bound as JDBC parameters; identifiers pass through
 * {@link org.ssbjca.backend.sqlserver.SqlServerNames}. SQL Server errors become the API's exceptions in
 * {@code SqlServerErrors}. Declaring objects and installing the schema are a DBA's work ({@code sql/sqlserver}); the
 * tests do it through the core module's test kit.
 */
package org.ssbjca.backend.sqlserver;
