DELETE FROM ssb.conversation_endpoint WHERE conversation_handle = ?
DELETE FROM ssb.conversation_group WHERE conversation_group_id = ? AND NOT EXISTS (SELECT 1 FROM ssb.conversation_endpoint e WHERE e.conversation_group_id = ?)
DELETE FROM ssb.conversation_hold WHERE conversation_group_id = ?
DELETE FROM ssb.conversation_priority WHERE conversation_group_id = ?
DELETE FROM ssb.conversation_priority WHERE conversation_group_id = ? AND NOT EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = ?)
DELETE FROM ssb.dead_letter WHERE dead_letter_id = ?
DELETE FROM ssb.dead_letter WHERE queue_name = ?
DELETE FROM ssb.dead_letter WHERE queue_name = ? AND dead_lettered_at < ?
DELETE FROM ssb.delivery_attempt WHERE conversation_handle = ?
DELETE FROM ssb.delivery_attempt WHERE conversation_handle = ? AND message_sequence_number = ?
DELETE FROM ssb.message WHERE conversation_handle = ?
DELETE FROM ssb.message WHERE queuing_order = ANY (?)
DELETE FROM ssb.scheduled_send WHERE scheduled_id = ?
DELETE FROM ssb.transmission_queue WHERE from_handle = ?
DELETE FROM ssb.transmission_queue WHERE to_handle = ?
DELETE FROM ssb.transmission_queue WHERE transmission_order = ?
EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = g.conversation_group_id)
INSERT INTO ssb.conversation_endpoint (conversation_handle, conversation_id, is_initiator, conversation_group_id, service_name, far_service, service_contract_name, state, send_sequence, lifetime_expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
INSERT INTO ssb.conversation_group (conversation_group_id, queue_name, turn) VALUES (?, ?, NEXT VALUE FOR ssb.turn_seq)
INSERT INTO ssb.conversation_hold (conversation_group_id, queue_name, held_until) VALUES (?, ?, ?)
INSERT INTO ssb.conversation_priority (conversation_group_id, queue_name, priority, request_order, requested_at) VALUES (?, ?, ?, NEXT VALUE FOR ssb.priority_request_seq, ?)
INSERT INTO ssb.dead_letter (queue_name, conversation_group_id, conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name, message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, (SELECT a.last_error FROM ssb.delivery_attempt a WHERE a.conversation_handle = ? AND a.message_sequence_number = ?)), ?, ?)
INSERT INTO ssb.delivery_attempt (conversation_handle, message_sequence_number, queue_name, attempts, last_error, last_attempt_at) VALUES (?, ?, ?, 1, ?, ?)
INSERT INTO ssb.message (queue_name, conversation_group_id, conversation_handle, message_sequence_number, message_type_name, message_body, enqueued_at, trace_context) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO ssb.scheduled_send (scheduled_id, conversation_handle, message_type_name, message_body, due_at, scheduled_at) VALUES (?, ?, ?, ?, ?, ?)
INSERT INTO ssb.transmission_queue (from_handle, to_handle, to_queue_name, message_sequence_number, message_type_name, message_body, enqueued_at, transmission_status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
NEXT VALUE FOR ssb.turn_seq
NOT COALESCE((SELECT h.held_until > ? FROM ssb.conversation_hold h WHERE h.conversation_group_id = {group}), FALSE)
RELEASE SAVEPOINT ssb_attempt
ROLLBACK TO SAVEPOINT ssb_attempt
SAVEPOINT ssb_attempt
SELECT (SELECT queue_name FROM ssb.service WHERE service_name = ?) AS from_queue, EXISTS (SELECT 1 FROM ssb.service WHERE service_name = ?) AS target_exists, EXISTS (SELECT 1 FROM ssb.contract WHERE contract_name = ?) AS contract_exists
SELECT 1 FROM ssb.contract WHERE contract_name = ?
SELECT 1 FROM ssb.conversation_endpoint WHERE lifetime_expires_at <= ? ORDER BY lifetime_expires_at FETCH FIRST 1 ROWS ONLY
SELECT 1 FROM ssb.conversation_endpoint WHERE timer_expires_at <= ? ORDER BY timer_expires_at FETCH FIRST 1 ROWS ONLY
SELECT 1 FROM ssb.conversation_priority WHERE queue_name = ? FETCH FIRST 1 ROWS ONLY
SELECT 1 FROM ssb.message WHERE conversation_handle = ? AND message_type_name = ? FETCH FIRST 1 ROWS ONLY
SELECT 1 FROM ssb.message_type WHERE message_type_name = ?
SELECT 1 FROM ssb.service_queue q WHERE q.queue_name = ? AND q.is_receive_enabled AND EXISTS (SELECT 1 FROM ssb.transmission_queue t WHERE t.to_queue_name = q.queue_name)
SELECT COALESCE(MAX(version), 0) FROM ssb.schema_version
SELECT COUNT(*) FROM ssb.dead_letter WHERE queue_name = ?
SELECT COUNT(*) FROM ssb.message WHERE queue_name = ?
SELECT COUNT(*) FROM ssb.transmission_queue
SELECT COUNT(DISTINCT conversation_group_id) FROM ssb.message WHERE queue_name = ?
SELECT MIN(enqueued_at) AS oldest FROM ssb.message WHERE queue_name = ?
SELECT conversation_group_id FROM ssb.conversation_group WHERE conversation_group_id = ? FOR UPDATE SKIP LOCKED
SELECT conversation_group_id, message_body FROM ssb.message WHERE queue_name = ? AND message_type_name = ? ORDER BY queuing_order
SELECT conversation_group_id, priority FROM ssb.conversation_priority WHERE queue_name = ?
SELECT conversation_group_id, state FROM ssb.conversation_endpoint WHERE conversation_handle = ?
SELECT conversation_group_id, state FROM ssb.conversation_endpoint WHERE conversation_handle = ? FOR UPDATE
SELECT conversation_handle FROM ssb.conversation_endpoint WHERE lifetime_expires_at <= ? FOR UPDATE SKIP LOCKED
SELECT conversation_handle FROM ssb.conversation_endpoint WHERE service_name = ? AND state = ? AND (? OR created_at < ?) ORDER BY created_at LIMIT ?
SELECT conversation_handle, conversation_group_id, service_name FROM ssb.conversation_endpoint WHERE timer_expires_at <= ? FOR UPDATE SKIP LOCKED
SELECT conversation_handle, conversation_id, is_initiator, conversation_group_id, service_name, far_service, service_contract_name, state, send_sequence, lifetime_expires_at FROM ssb.conversation_endpoint WHERE conversation_id = (SELECT conversation_id FROM ssb.conversation_endpoint WHERE conversation_handle = ?) FOR UPDATE
SELECT conversation_handle, message_sequence_number, attempts FROM ssb.delivery_attempt WHERE conversation_handle = ? AND message_sequence_number = ?
SELECT conversation_handle, message_sequence_number, attempts FROM ssb.delivery_attempt WHERE conversation_handle = ANY (?) AND message_sequence_number = ANY (?)
SELECT dead_letter_id, queue_name, conversation_group_id, conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name, CAST(NULL AS BYTEA) AS message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id FROM ssb.dead_letter WHERE queue_name = ? AND dead_letter_id > ? AND (LOWER(last_error) LIKE ? ESCAPE '!' OR LOWER(service_name) LIKE ? ESCAPE '!' OR LOWER(message_type_name) LIKE ? ESCAPE '!' OR POSITION(? IN message_body) > 0) ORDER BY dead_letter_id LIMIT ?
SELECT dead_letter_id, queue_name, conversation_group_id, conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name, CAST(NULL AS BYTEA) AS message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id FROM ssb.dead_letter WHERE queue_name = ? AND dead_letter_id > ? ORDER BY dead_letter_id LIMIT ?
SELECT dead_letter_id, queue_name, conversation_group_id, conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name, message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id FROM ssb.dead_letter WHERE queue_name = ? AND dead_letter_id = ? FOR UPDATE
SELECT dead_letter_id, queue_name, conversation_group_id, conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name, message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id FROM ssb.dead_letter WHERE queue_name = ? AND dead_letter_id > ? AND (LOWER(last_error) LIKE ? ESCAPE '!' OR LOWER(service_name) LIKE ? ESCAPE '!' OR LOWER(message_type_name) LIKE ? ESCAPE '!' OR POSITION(? IN message_body) > 0) ORDER BY dead_letter_id LIMIT ?
SELECT dead_letter_id, queue_name, conversation_group_id, conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name, message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id FROM ssb.dead_letter WHERE queue_name = ? AND dead_letter_id > ? ORDER BY dead_letter_id LIMIT ?
SELECT due_at FROM ssb.scheduled_send ORDER BY due_at FETCH FIRST 1 ROWS ONLY
SELECT due_at FROM ssb.scheduled_send WHERE due_at > ? ORDER BY due_at FETCH FIRST 1 ROWS ONLY
SELECT g.conversation_group_id, g.turn FROM ssb.conversation_group g WHERE g.queue_name = ? AND g.turn > ? AND g.turn < 4611686018427387904 AND EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = g.conversation_group_id) AND NOT COALESCE((SELECT h.held_until > ? FROM ssb.conversation_hold h WHERE h.conversation_group_id = g.conversation_group_id), FALSE) ORDER BY g.turn LIMIT ?
SELECT is_receive_enabled FROM ssb.service_queue WHERE queue_name = ?
SELECT m.conversation_group_id, COUNT(*) AS messages, MIN(m.enqueued_at) AS oldest, MIN(m.queuing_order) AS first_order, MAX(p.priority) AS priority FROM ssb.message m LEFT JOIN ssb.conversation_priority p ON p.conversation_group_id = m.conversation_group_id LEFT JOIN ssb.conversation_group g ON g.conversation_group_id = m.conversation_group_id WHERE m.queue_name = ? GROUP BY m.conversation_group_id ORDER BY MAX(p.priority) DESC NULLS LAST, MIN(p.request_order), MIN(g.turn), first_order LIMIT ?
SELECT m.queuing_order, m.conversation_group_id, m.conversation_handle, m.message_sequence_number, m.message_type_name, m.message_body, m.enqueued_at AS enqueued_at, e.conversation_id, e.service_name, e.service_contract_name, m.trace_context FROM ssb.message m LEFT JOIN ssb.conversation_endpoint e ON e.conversation_handle = m.conversation_handle WHERE m.conversation_group_id = ? ORDER BY m.queuing_order LIMIT ?
SELECT m.queuing_order, m.conversation_group_id, m.conversation_handle, m.message_sequence_number, m.message_type_name, m.message_body, m.enqueued_at AS enqueued_at, e.conversation_id, e.service_name, e.service_contract_name, m.trace_context FROM ssb.message m LEFT JOIN ssb.conversation_endpoint e ON e.conversation_handle = m.conversation_handle WHERE m.conversation_handle = ? ORDER BY m.queuing_order LIMIT ?
SELECT p.conversation_group_id FROM ssb.conversation_priority p WHERE p.queue_name = ? AND EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = p.conversation_group_id) AND NOT COALESCE((SELECT h.held_until > ? FROM ssb.conversation_hold h WHERE h.conversation_group_id = p.conversation_group_id), FALSE) ORDER BY p.priority DESC, p.request_order LIMIT ?
SELECT q.queue_name FROM ssb.service_queue q WHERE q.is_receive_enabled AND EXISTS (SELECT 1 FROM ssb.transmission_queue t WHERE t.to_queue_name = q.queue_name) ORDER BY q.queue_name
SELECT queue_name FROM ssb.conversation_group WHERE conversation_group_id = ?
SELECT queue_name FROM ssb.conversation_group WHERE conversation_group_id = ? FOR UPDATE
SELECT queue_name FROM ssb.service_queue ORDER BY queue_name
SELECT queue_name FROM ssb.service_queue WHERE queue_name = ? AND is_receive_enabled FOR UPDATE SKIP LOCKED
SELECT r.sent_by, r.validation, EXISTS (SELECT 1 FROM ssb.message_type WHERE message_type_name = ?) AS type_exists, s.queue_name, EXISTS (SELECT 1 FROM ssb.service_contract sc WHERE sc.service_name = s.service_name AND sc.contract_name = ?) AS accepts, q.is_receive_enabled AS receives FROM (SELECT 1 AS one) x LEFT JOIN (SELECT cm.sent_by, mt.validation FROM ssb.contract_message_type cm JOIN ssb.message_type mt ON mt.message_type_name = cm.message_type_name WHERE cm.contract_name = ? AND cm.message_type_name = ?) r ON 1 = 1 LEFT JOIN ssb.service s ON s.service_name = ? LEFT JOIN ssb.service_queue q ON q.queue_name = s.queue_name
SELECT s.queue_name, q.is_receive_enabled FROM ssb.service s LEFT JOIN ssb.service_queue q ON q.queue_name = s.queue_name WHERE s.service_name = ?
SELECT scheduled_id, conversation_handle, message_type_name, message_body, due_at FROM ssb.scheduled_send WHERE due_at <= ? ORDER BY due_at, schedule_order FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED
SELECT service_name, state, COUNT(*) AS n, MIN(created_at) AS oldest FROM ssb.conversation_endpoint WHERE ? OR created_at < ? GROUP BY service_name, state ORDER BY service_name, state
SELECT t.transmission_order, t.to_handle, t.message_sequence_number, t.message_type_name, t.message_body, e.conversation_group_id, e.state FROM ssb.transmission_queue t LEFT JOIN ssb.conversation_endpoint e ON e.conversation_handle = t.to_handle WHERE t.to_queue_name = ? AND t.transmission_order > ? ORDER BY t.transmission_order LIMIT ?
SET LOCK_TIMEOUT 10000
SET LOCK_TIMEOUT 250
UPDATE ssb.conversation_endpoint SET conversation_group_id = ? WHERE conversation_handle = ?
UPDATE ssb.conversation_endpoint SET send_sequence = ?, state = ? WHERE conversation_handle = ?
UPDATE ssb.conversation_endpoint SET state = 'ER', lifetime_expires_at = NULL, timer_expires_at = NULL WHERE conversation_handle = ?
UPDATE ssb.conversation_endpoint SET state = ? WHERE conversation_handle = ?
UPDATE ssb.conversation_endpoint SET timer_expires_at = ? WHERE conversation_handle = ?
UPDATE ssb.conversation_endpoint SET timer_expires_at = NULL WHERE conversation_handle = ?
UPDATE ssb.conversation_group SET turn = NEXT VALUE FOR ssb.turn_seq WHERE conversation_group_id = ?
UPDATE ssb.conversation_group g SET turn = NEXT VALUE FOR ssb.turn_seq WHERE g.conversation_group_id = ? AND g.turn >= 4611686018427387904 AND EXISTS (SELECT 1 FROM ssb.message m WHERE m.conversation_group_id = g.conversation_group_id)
UPDATE ssb.conversation_hold SET held_until = ? WHERE conversation_group_id = ?
UPDATE ssb.delivery_attempt SET attempts = attempts + 1, last_error = ?, last_attempt_at = ? WHERE conversation_handle = ? AND message_sequence_number = ?
UPDATE ssb.delivery_attempt SET attempts = attempts + 1000000 WHERE conversation_handle = ? AND message_sequence_number = ? AND attempts < 1000000
UPDATE ssb.message SET conversation_group_id = ? WHERE conversation_handle = ?
UPDATE ssb.scheduled_send SET due_at = ? WHERE scheduled_id = ?
conversation_handle, conversation_id, is_initiator, conversation_group_id, service_name, far_service, service_contract_name, state, send_sequence, lifetime_expires_at
dead_letter_id, queue_name, conversation_group_id, conversation_handle, conversation_id, message_sequence_number, message_type_name, service_name, service_contract_name, message_body, enqueued_at, attempts, last_error, dead_lettered_at, copy_conversation_id
