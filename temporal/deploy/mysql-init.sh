#!/bin/sh
# Runs once, when the MySQL container first creates its data directory: the hub's and Temporal's users, each with
# rights on its own databases only.
set -eu
mysql -uroot -p"$MYSQL_ROOT_PASSWORD" <<SQL
CREATE DATABASE IF NOT EXISTS hub CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS 'hub'@'%' IDENTIFIED BY '$HUB_DB_PASSWORD';
GRANT ALL PRIVILEGES ON hub.* TO 'hub'@'%';
CREATE USER IF NOT EXISTS 'temporal'@'%' IDENTIFIED BY '$TEMPORAL_DB_PASSWORD';
GRANT ALL PRIVILEGES ON temporal.* TO 'temporal'@'%';
GRANT ALL PRIVILEGES ON temporal_visibility.* TO 'temporal'@'%';
SQL
