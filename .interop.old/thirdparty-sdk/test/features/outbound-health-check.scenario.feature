Feature: Outbound API server

Scenario: Health Check
  Given Outbound API server
  When I get 'Health Check' response
  Then The status should be 'OK'
