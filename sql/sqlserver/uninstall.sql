-- Removes the ssb-jca tables (schema ssb) from a SQL Server database: priorities, delivery attempts, dead letters.
-- Service Broker objects (queues, services, contracts, message types) and conversations are the application's and
-- are left alone; sample-uninstall.sql removes the sample's. Idempotent. Batches are separated by GO lines.

IF EXISTS (SELECT 1 FROM sys.services WHERE name = N'ssb/ScheduledSend')
    DROP SERVICE [ssb/ScheduledSend];
GO

IF EXISTS (SELECT 1 FROM sys.service_queues WHERE name = N'ScheduledSendQueue' AND schema_id = SCHEMA_ID(N'ssb'))
    DROP QUEUE ssb.ScheduledSendQueue;
GO

IF OBJECT_ID(N'ssb.send_scheduled', N'P') IS NOT NULL
    DROP PROCEDURE ssb.send_scheduled;
GO

IF OBJECT_ID(N'ssb.schedule_send', N'P') IS NOT NULL
    DROP PROCEDURE ssb.schedule_send;
GO

IF OBJECT_ID(N'ssb.send_traced', N'P') IS NOT NULL
    DROP PROCEDURE ssb.send_traced;
GO

DROP TABLE IF EXISTS ssb.message_trace;
DROP TABLE IF EXISTS ssb.scheduled_send;
DROP TABLE IF EXISTS ssb.dead_letter;
DROP TABLE IF EXISTS ssb.delivery_attempt;
DROP TABLE IF EXISTS ssb.conversation_hold;
DROP TABLE IF EXISTS ssb.conversation_priority;
DROP TABLE IF EXISTS ssb.schema_version;
GO

IF SCHEMA_ID(N'ssb') IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sys.objects WHERE schema_id = SCHEMA_ID(N'ssb'))
    EXEC (N'DROP SCHEMA [ssb]');
GO
